import { removeRunDirectory } from './run-directory';

export default removeRunDirectory;
