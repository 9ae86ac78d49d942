import { bootstrap } from './main';

/** The embedded default of `npm start`: SQLite under ./data, in-process bus, port 8080. */
void bootstrap(8080);
