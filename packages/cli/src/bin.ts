import { main } from './program';

void main(process.argv).then((code) => {
  process.exitCode = code;
});
