/** A mix of what a sign-up form sees: ordinary, plus-addressed, IDN, typos, role, random, disposable, invalid. */
export const BENCH_ADDRESSES = [
  'jane.doe@gmail.com',
  'max.mustermann+shop@gmx.de',
  'jean-pierre.dupont@orange.fr',
  'marie@laposte.net',
  'info@bücher.de',
  'admin@company.example',
  'luc@hotmial.fr',
  'jane@gmial.com',
  'x7k2m9p4q1zr@outlook.com',
  'someone@x.mailinator.com',
  'not an address',
  '"quoted local"@example.org',
  'a.very.long.local.part.with.dots@sub.domain.company.example',
  'test@example..com',
  'françois@free.fr',
  'support@t-online.de',
];

/** Domains of the list above that have an MX in the bench's loopback DNS zone. */
export const BENCH_MX_DOMAINS = [
  'gmail.com',
  'gmx.de',
  'orange.fr',
  'laposte.net',
  'xn--bcher-kva.de',
  'company.example',
  'hotmial.fr',
  'gmial.com',
  'outlook.com',
  'example.org',
  'sub.domain.company.example',
  'free.fr',
  't-online.de',
];
