import { IsIn } from 'class-validator';
import { Env } from './environment';

/** Whether the service takes its fast paths (libs/common/src/fast-paths/fast-paths.ts lists them) or only public APIs. */
export class FastPathsConfig {
  static readonly namespace = 'fastPaths';

  /** `off`: TypeORM's repositories and query builders, class-validator and Express routing as they come. */
  @Env('FAST_PATHS') @IsIn(['on', 'off']) fastPaths: 'on' | 'off' = 'on';
}
