import { OneOf } from '../rules';
import { Variable } from '../variable';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export class LoggingConfig {
  /** pino level of the log lines; unset, it follows NODE_ENV (see loadConfig). */
  @Variable({
    name: 'LOG_LEVEL',
    default: 'info',
    defaultNote: '`info` (`warn` when `NODE_ENV=test`)',
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  })
  @OneOf(LOG_LEVELS, `one of ${LOG_LEVELS.join(', ')}`)
  level: LogLevel;

  /** `json`: a JSON object a line (for collectors); `pretty`: readable lines. Unset: pretty when stdout is a terminal. */
  @Variable({
    name: 'LOG_FORMAT',
    defaultNote: '`pretty` when stdout is a terminal, else `json`',
    example: 'json',
    description: '`json`: one JSON object a line (for log collectors); `pretty`: readable lines, in colour on a terminal',
  })
  @OneOf(LOG_FORMATS, 'json or pretty')
  format?: LogFormat;
}
