import { HTTP, OneOf, UrlOf } from '../rules';
import { Variable } from '../variable';

const ENDPOINT_RULE = 'an http(s) URL, such as http://otel-collector:4318';
const PROTOCOL_RULE = 'http/json (the only OTLP protocol this service sends)';

/**
 * The standard OTEL_* variables this service reads itself: they decide whether traces are on and where
 * they go (see tracingConfig). Declared in the order their problems are reported.
 */
export class TracingVariables {
  @Variable({
    name: 'OTEL_TRACES_EXPORTER',
    example: 'otlp',
    description: '`otlp` turns traces on (to `http://localhost:4318` without an endpoint), `none` turns them off',
  })
  @OneOf(['otlp', 'none'], 'otlp or none', false)
  exporter?: 'otlp' | 'none';

  @Variable({ name: 'OTEL_EXPORTER_OTLP_PROTOCOL', description: 'only `http/json` is sent; another value is refused at start' })
  @OneOf(['http/json'], PROTOCOL_RULE, false)
  protocol = 'http/json';

  @Variable({ name: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', description: 'as `OTEL_EXPORTER_OTLP_PROTOCOL`, for traces only' })
  @OneOf(['http/json'], PROTOCOL_RULE, false)
  tracesProtocol = 'http/json';

  @Variable({
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    example: 'http://otel-collector:4318',
    description: 'an OTLP/HTTP collector: turns traces on (spans go to its `/v1/traces`); see [docs/observability.md](docs/observability.md)',
  })
  @UrlOf(HTTP, ENDPOINT_RULE)
  endpoint?: string;

  @Variable({
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    example: 'http://otel-collector:4318/v1/traces',
    description: 'the traces URL itself, used as is (turns traces on)',
  })
  @UrlOf(HTTP, ENDPOINT_RULE)
  tracesEndpoint?: string;

  @Variable({
    name: 'OTEL_SDK_DISABLED',
    parse: (raw) => raw === 'true',
    description: '`true` turns traces off whatever else is set',
  })
  sdkDisabled = false;

  @Variable({ name: 'OTEL_SERVICE_NAME', description: 'the `service.name` of every span' })
  serviceName = 'petstore-api';
}

/** Variables the OpenTelemetry SDK reads and checks itself once traces are on: declared for the documentation only. */
export class TracingSdkVariables {
  @Variable({
    name: 'OTEL_TRACES_SAMPLER',
    readBySdk: true,
    defaultNote: "`parentbased_always_on` (the SDK's)",
    example: 'parentbased_traceidratio',
    description: 'which traces are kept, read by the OpenTelemetry SDK: `parentbased_traceidratio` with `OTEL_TRACES_SAMPLER_ARG` keeps a share',
  })
  sampler?: string;

  @Variable({
    name: 'OTEL_TRACES_SAMPLER_ARG',
    readBySdk: true,
    example: '0.1',
    description: "the sampler's argument, read by the OpenTelemetry SDK (`0.1`: one trace in ten)",
  })
  samplerArg?: string;

  @Variable({
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    readBySdk: true,
    example: 'authorization=Bearer%20token',
    description:
      'headers sent to the collector, read by the OpenTelemetry SDK (as are its other `OTEL_*` settings: see [docs/observability.md](docs/observability.md))',
  })
  headers?: string;
}
