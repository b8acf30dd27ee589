export * from './common';
export * from './mail';
export * from './text';
export * from './hybrid';
