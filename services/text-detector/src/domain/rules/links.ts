import type { Rule } from './types';
import { gradedWeight, REASON_WEIGHTS } from './weights';

/**
 * Links: how many, how much of the text they make up, and how many go through a URL shortener that hides
 * the destination. Three or more links, links making up over a third of the text, or any shortener count.
 */

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"'()[\]{}]{1,2000}/gi;
const HOST = /^(?:https?:\/\/)?([^/?#:]{1,253})/i;

const SHORTENERS = new Set([
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  'goo.gl',
  't.co',
  'ow.ly',
  'is.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  'rb.gy',
  's.id',
  't.ly',
  'bl.ink',
  'lnkd.in',
  'v.gd',
  'soo.gd',
  'clck.ru',
  'qr.ae',
  'adf.ly',
  'shorte.st',
  'bc.vc',
  'ouo.io',
  'x.co',
  'tr.im',
  'mcaf.ee',
  'su.pr',
  'po.st',
  'db.tt',
  'wp.me',
  'trib.al',
  'snip.ly',
  'linktr.ee',
  'tiny.one',
  'urlz.fr',
  'kurzelinks.de',
  'kurz.ly',
  'shorturl.com',
]);

export const linksRule: Rule = ({ text }) => {
  let links = 0;
  let linkCharacters = 0;
  let shorteners = 0;
  for (const match of text.matchAll(LINK)) {
    links++;
    linkCharacters += match[0].length;
    const host = HOST.exec(match[0])?.[1]
      ?.toLowerCase()
      .replace(/^www\./, '');
    if (host && SHORTENERS.has(host)) shorteners++;
  }
  const density = text.length ? linkCharacters / text.length : 0;
  const findings: ReturnType<Rule>['findings'] = [];
  if (links >= 3) {
    const weight = gradedWeight(REASON_WEIGHTS.TEXT_LINKS, links);
    findings.push({ code: 'TEXT_LINKS', weight, params: { count: links } });
  }
  if (links >= 1 && density > 0.33)
    findings.push({ code: 'TEXT_LINK_DENSITY', weight: REASON_WEIGHTS.TEXT_LINK_DENSITY });
  if (shorteners > 0)
    findings.push({
      code: 'TEXT_URL_SHORTENER',
      weight: gradedWeight(REASON_WEIGHTS.TEXT_URL_SHORTENER, shorteners),
    });
  return { findings, signals: { links, link_density: Math.round(density * 1000) / 1000, shorteners } };
};
