export { redisUrl, amqpUrl } from './infrastructure';
export { chromiumPath, launchBrowser, screenshotPath } from './browser';
export { TcpProxy } from './tcp-proxy';
