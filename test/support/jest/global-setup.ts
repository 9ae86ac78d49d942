import { makeRunDirectory } from './run-directory';

export default makeRunDirectory;
