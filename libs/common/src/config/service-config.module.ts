import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, getConfigToken, registerAs } from '@nestjs/config';
import { AdmissionConfig } from './admission.config';
import { AuthConfig } from './auth.config';
import { CrudConfig } from './crud.config';
import { DatabaseConfig } from './database.config';
import { checkConfig, ConfigClass, Environment, readConfig } from './environment';
import { RetentionConfig } from './retention.config';
import { ServerConfig } from './server.config';

/** The namespaces every service reads: the shared library's own consumers need them. */
export const SHARED_CONFIG: ConfigClass[] = [ServerConfig, DatabaseConfig, AuthConfig, CrudConfig, RetentionConfig, AdmissionConfig];

/** What a service's configuration depends on (its manifest). */
export interface ConfiguredService {
  /** PORT when unset. */
  defaultPort: number;
  /**
   * Its own namespaces (classes of `@Env` properties, declared in the app), read, validated and injected
   * besides the shared ones.
   */
  config: ConfigClass[];
}

/** The shared namespaces and the service's own: all it validates. */
export const namespacesOf = (service: ConfiguredService): ConfigClass[] => [...SHARED_CONFIG, ...service.config];

/** What is wrong with every namespace of the service in `env`, one line per bad variable (the start-up report lists them all). */
export const configProblems = (service: ConfiguredService, env: Environment): string[] =>
  namespacesOf(service).flatMap((type) => checkConfig(type, env, { PORT: String(service.defaultPort) }).problems);

/**
 * One service's configuration: each namespace registered with @nestjs/config (`ConfigService.get('server')`)
 * and injectable by its class (`constructor(config: ServerConfig)`). All are read and validated while the app
 * is created, from the environment of that moment, so a bad variable stops start-up with its name; a service
 * validates only the shared namespaces and its own (an app never reads another app's variables).
 */
@Module({})
export class ServiceConfigModule {
  static forService(service: ConfiguredService): DynamicModule {
    const namespaces = namespacesOf(service);
    const defaults = { PORT: String(service.defaultPort) };
    return {
      module: ServiceConfigModule,
      global: true,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          // the environment is the whole configuration (docs/configuration.md): no .env file is read
          ignoreEnvFile: true,
          load: namespaces.map((type) => registerAs(type.namespace, () => readConfig(type, process.env, defaults))),
        }),
      ],
      providers: namespaces.map((type) => ({ provide: type, useExisting: getConfigToken(type.namespace) })),
      exports: namespaces,
    };
  }
}
