import { Variable } from '../variable';
import { OneOf } from '../rules';

export type NodeEnv = 'development' | 'production' | 'test';

export class EnvironmentConfig {
  @Variable({
    name: 'NODE_ENV',
    usedBy: ['service', 'tool'],
    description:
      '`development`, `production` or `test`. Production demands `CURSOR_SECRET`, `METRICS_TOKEN` (while metrics are on) and an API key, each hard to guess; development creates and prints a key on a first start',
  })
  @OneOf(['development', 'production', 'test'], 'development, production or test')
  nodeEnv: NodeEnv = 'development';
}
