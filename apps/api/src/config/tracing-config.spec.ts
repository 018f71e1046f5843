import { tracingConfig } from './tracing-config';

describe('tracingConfig', () => {
  it('turns traces on from the standard OTEL_* variables only', () => {
    expect(tracingConfig({})).toEqual({ enabled: false, serviceName: 'petstore-api' });
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({
      enabled: true,
      serviceName: 'petstore-api',
      tracesUrl: 'http://c:4318/v1/traces',
    });
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c/custom' }).tracesUrl).toBe('https://c/custom');
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).tracesUrl).toBe('http://localhost:4318/v1/traces');
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(false);
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
  });
});
