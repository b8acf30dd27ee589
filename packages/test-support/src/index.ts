export { redisUrl, amqpUrl } from './infrastructure';
export { chromiumPath, launchBrowser } from './browser';
export { TcpProxy } from './tcp-proxy';
