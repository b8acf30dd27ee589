export { main, buildProgram } from './program';
export { EXIT } from './exit-codes';
export { configPath } from './config-file';
