/**
 * The built services as an operator runs them: start-up failures and lines, `npm start` and `npm run token`,
 * SIGTERM with requests in flight, and a start without the optional SQLite driver.
 * The cases live in ./lifecycle/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module starts its own processes in its own describe.
 */
import './lifecycle/startup';
import './lifecycle/graceful-shutdown';
import './lifecycle/optional-sqlite-driver';
