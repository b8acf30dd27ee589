import { parseAddress, type SyntaxFailure } from '../../src/domain/syntax';

/**
 * Sources: [5321] RFC 5321 §4.1.2/§4.5.3.1, [5322] RFC 5322 §3.2/§3.4.1, [3696] RFC 3696 §3 with erratum
 * 1690, [6531] RFC 6531 §3.3, [1035] RFC 1035 §2.3.1 (LDH labels), [wiki] Wikipedia "Email address"
 * (examples section), [isemail] Dominic Sayers' is_email test suite, [ours] a decision documented in the
 * README ("Syntax").
 */
type Row = [input: string, expected: 'valid' | SyntaxFailure, source: string];

const x = (n: number, char = 'a') => char.repeat(n);
const label63 = x(63);

const valid: Row[] = [
  ['simple@example.com', 'valid', 'wiki'],
  ['very.common@example.com', 'valid', 'wiki'],
  ['FirstName.LastName@EasierReading.org', 'valid', 'wiki'],
  ['x@example.com', 'valid', 'wiki'],
  ['long.email-address-with-hyphens@and.subdomains.example.com', 'valid', 'wiki'],
  ['user.name+tag+sorting@example.com', 'valid', 'wiki'],
  ['name/surname@example.com', 'valid', 'wiki'],
  ['example@s.example', 'valid', 'wiki'],
  ['" "@example.org', 'valid', 'wiki'],
  ['"john..doe"@example.org', 'valid', 'wiki'],
  ['mailhost!username@example.org', 'valid', 'wiki'],
  ['"very.(),:;<>[]\\".VERY.\\"very@\\\\ \\"very\\".unusual"@strange.example.com', 'valid', 'wiki'],
  ['user%example.com@example.org', 'valid', 'wiki'],
  ['user-@example.org', 'valid', 'wiki'],
  ['Pelé@example.com', 'valid', 'wiki/6531'],
  ['δοκιμή@παράδειγμα.δοκιμή', 'valid', 'wiki/6531'],
  ['我買@屋企.香港', 'valid', 'wiki/6531'],
  ['二ノ宮@黒川.日本', 'valid', 'wiki/6531'],
  ['медведь@с-балалайкой.рф', 'valid', 'wiki/6531'],
  ['संपर्क@डाटामेल.भारत', 'valid', 'wiki/6531'],
  ['Abc.def@example.com', 'valid', '3696'],
  ['customer/department=shipping@example.com', 'valid', '3696'],
  ['$A12345@example.com', 'valid', '3696'],
  ['!def!xyz%abc@example.com', 'valid', '3696'],
  ['_somename@example.com', 'valid', '3696'],
  ['"Abc@def"@example.com', 'valid', '3696'],
  ['"Fred Bloggs"@example.com', 'valid', '3696'],
  ['"Joe\\\\Blow"@example.com', 'valid', '3696'],
  ['"Abc\\@def"@example.com', 'valid', '3696'],
  ['test@example.com', 'valid', 'isemail'],
  ['TEST@example.com', 'valid', 'isemail'],
  ['1234567890@example.com', 'valid', 'isemail'],
  ['test+test@example.com', 'valid', 'isemail'],
  ['test-test@example.com', 'valid', 'isemail'],
  ['t*est@example.com', 'valid', 'isemail'],
  ['+1~1+@example.com', 'valid', 'isemail'],
  ['{_test_}@example.com', 'valid', 'isemail'],
  ['test.test@example.com', 'valid', 'isemail'],
  ['"test.test"@example.com', 'valid', 'isemail'],
  ['test.test.test@example.com', 'valid', 'isemail'],
  ['"test@test"@example.com', 'valid', 'isemail'],
  ['test@123.example.com', 'valid', 'isemail'],
  ['test@example.example.com', 'valid', 'isemail'],
  ['test@example.example.example.com', 'valid', 'isemail'],
  ['"\\""@example.com', 'valid', 'isemail'],
  ['"\\\\"@example.com', 'valid', 'isemail'],
  ['"\\a"@example.com', 'valid', 'isemail'],
  ['a@a.bc', 'valid', 'isemail'],
  ['test@xn--hxajbheg2az3al.xn--jxalpdlp', 'valid', 'isemail'],
  ['xn--test@example.com', 'valid', 'isemail'],
  ['test@a-b.example.com', 'valid', '1035'],
  ['test@a--b.example.com', 'valid', '1035'],
  ['test@1a.example.com', 'valid', '1035'],
  ['test@a1.example.com', 'valid', '1035'],
  ['test@example.museum', 'valid', '1035'],
  [`${x(64)}@example.com`, 'valid', '5321'],
  [`a@${label63}.com`, 'valid', '5321'],
  [`${x(64)}@${[x(63), x(63), x(57)].join('.')}.de`, 'valid', '3696'],
  ['jane.doe+newsletter@gmail.com', 'valid', 'ours: plus-addressing'],
  ['max.mustermann@gmx.de', 'valid', 'ours'],
  ['jean-pierre.dupont@orange.fr', 'valid', 'ours'],
  ['françois@laposte.net', 'valid', 'ours: UTF-8 local part'],
  ['jürgen.müller@web.de', 'valid', 'ours: UTF-8 local part'],
  ['info@bücher.de', 'valid', 'ours: IDN'],
  ['kontakt@straße.de', 'valid', 'ours: IDN (ß kept, non-transitional)'],
  ['user@sub.domain.example.co.uk', 'valid', 'ours: subdomains'],
  ['USER@EXAMPLE.COM', 'valid', 'ours'],
  ['  padded@example.com  ', 'valid', 'ours: surrounding whitespace trimmed'],
  ['\tpadded@example.com\t ', 'valid', 'ours: surrounding spaces and tabs trimmed'],
  ["o'brien@example.ie", 'valid', '5322 atext'],
  ['a.b.c.d.e@example.com', 'valid', '5322 dot-atom'],
  ['a&b@example.com', 'valid', '5322 atext'],
  ['a=b@example.com', 'valid', '5322 atext'],
  ['a?b@example.com', 'valid', '5322 atext'],
  ['a^b@example.com', 'valid', '5322 atext'],
  ['a`b@example.com', 'valid', '5322 atext'],
  ['a|b@example.com', 'valid', '5322 atext'],
  ['a#b@example.com', 'valid', '5322 atext'],
  ['user@ＥＸＡＭＰＬＥ.com', 'valid', 'ours: UTS #46 maps full-width letters'],
  ['用户@例子.广告', 'valid', '6531'],
  ['θσερ@εχαμπλε.ψομ', 'valid', '6531'],
  ['"quoted space"@example.com', 'valid', '5321 quoted-string'],
  ['"a@b"@example.com', 'valid', '5321 quoted-string'],
  [`"${x(64)}"@example.com`, 'valid', 'ours: needless quotes are dropped before counting'],
];

const invalid: Row[] = [
  ['', 'empty', 'ours'],
  ['   ', 'empty', 'ours'],
  ['Abc.example.com', 'missing_at', 'wiki'],
  ['A@b@c@example.com', 'invalid_local_part', 'wiki'],
  ['a"b(c)d,e:f;g<h>i[j\\k]l@example.com', 'comment_not_accepted', 'wiki'],
  ['just"not"right@example.com', 'invalid_local_part', 'wiki'],
  ['this is"not\\allowed@example.com', 'forbidden_character', 'wiki'],
  ['this\\ still\\"not\\\\allowed@example.com', 'forbidden_character', 'wiki'],
  [
    '1234567890123456789012345678901234567890123456789012345678901234+x@example.com',
    'local_part_too_long',
    'wiki',
  ],
  ['i.like.underscores@but_they_are_not_allowed_in_this_part', 'invalid_domain', 'wiki'],
  ['admin@example', 'domain_not_fully_qualified', 'wiki (valid RFC, refused: ours)'],
  ['postmaster@[123.123.123.123]', 'address_literal_not_accepted', 'wiki (valid RFC, refused: ours)'],
  ['postmaster@[IPv6:2001:0db8:85a3:0000:0000:8a2e:0370:7334]', 'address_literal_not_accepted', 'wiki/ours'],
  ['_test@[IPv6:2001:0db8:85a3:0000:0000:8a2e:0370:7334]', 'address_literal_not_accepted', 'wiki/ours'],
  ['Abc\\@def@example.com', 'invalid_local_part', '3696 erratum: backslash needs quotes'],
  ['Fred\\ Bloggs@example.com', 'forbidden_character', '3696 erratum'],
  ['Joe.\\\\Blow@example.com', 'invalid_local_part', '3696 erratum'],
  [`${x(65)}@example.com`, 'local_part_too_long', '5321'],
  [`"a ${x(61)}"@example.com`, 'local_part_too_long', '5321 (quotes count)'],
  [`${'ü'.repeat(33)}@example.com`, 'local_part_too_long', '5321 octets, ours: UTF-8'],
  [`a@${x(64)}.com`, 'label_too_long', '1035'],
  [`a@${x(250)}.com`, 'too_long', '3696'],
  [`${x(60)}@${[x(63), x(63), x(63)].join('.')}.com`, 'too_long', '3696'],
  ['test', 'missing_at', 'isemail'],
  ['@', 'empty_local_part', 'isemail'],
  ['test@', 'empty_domain', 'isemail'],
  ['@example.com', 'empty_local_part', 'isemail'],
  ['.test@example.com', 'invalid_local_part', 'isemail'],
  ['test.@example.com', 'invalid_local_part', 'isemail'],
  ['test..example@example.com', 'invalid_local_part', 'isemail'],
  ['test\\@test@example.com', 'invalid_local_part', 'isemail'],
  ['test@example.com@', 'invalid_local_part', 'isemail'],
  ['test@@example.com', 'invalid_local_part', 'isemail'],
  ['test@.example.com', 'invalid_domain', 'isemail'],
  ['test@example.com.', 'invalid_domain', 'isemail / ours: no trailing dot'],
  ['test@example..com', 'invalid_domain', 'isemail'],
  ['test@-example.com', 'invalid_domain', 'isemail'],
  ['test@example-.com', 'invalid_domain', 'isemail'],
  ['test@exa_mple.com', 'invalid_domain', 'isemail'],
  ['test@example.com-', 'invalid_domain', 'isemail'],
  ['test@example.c', 'invalid_top_level_domain', 'ours'],
  ['test@example.123', 'invalid_top_level_domain', 'ours'],
  ['test@example.c0m', 'invalid_top_level_domain', 'ours'],
  ['test@1.2.3.4', 'invalid_top_level_domain', 'ours: bare IPv4 is no domain'],
  ['test@255.255.255.255', 'invalid_top_level_domain', 'ours'],
  ['test@[255.255.255.255]', 'address_literal_not_accepted', 'isemail / ours'],
  ['test@[IPv6:::1]', 'address_literal_not_accepted', 'isemail / ours'],
  ['"test"test@example.com', 'invalid_local_part', 'isemail'],
  ['"test"."test"@example.com', 'invalid_local_part', '5321: no mixed local part'],
  ['test."test"@example.com', 'invalid_local_part', '5321: no mixed local part'],
  ['"test@example.com', 'unterminated_quoted_string', 'isemail'],
  ['"test\\"@example.com', 'unterminated_quoted_string', 'isemail'],
  ['""@example.com', 'empty_local_part', 'ours'],
  ['"\t"@example.com', 'control_character', '5321 qtextSMTP / docs/design.md'],
  ['"\r\n"@example.com', 'control_character', '5321 qtextSMTP / docs/design.md'],
  ['"a\\\tb"@example.com', 'control_character', '5321 quoted-pairSMTP / docs/design.md'],
  ['"a\u00a0b"@example.com', 'forbidden_character', 'ours'],
  ['(comment)test@example.com', 'comment_not_accepted', '5322 CFWS / ours'],
  ['test(comment)@example.com', 'comment_not_accepted', '5322 CFWS / ours'],
  ['test@(comment)example.com', 'comment_not_accepted', '5322 CFWS / ours'],
  ['test@example.com(comment)', 'comment_not_accepted', '5322 CFWS / ours'],
  ['test @example.com', 'forbidden_character', '5322 / ours'],
  ['test@ example.com', 'forbidden_character', '5322 / ours'],
  ['te st@example.com', 'forbidden_character', '5322'],
  ['test@exa mple.com', 'forbidden_character', '5322'],
  ['test\t@example.com', 'control_character', '5322 / docs/design.md'],
  ['test\r\n@example.com', 'control_character', '5322 / docs/design.md'],
  ['test@exam\nple.com', 'control_character', '5322 / docs/design.md'],
  ['te\u0000st@example.com', 'control_character', '5322 / docs/design.md'],
  ['te\u0007st@example.com', 'control_character', '5322 / docs/design.md'],
  ['te\u007fst@example.com', 'control_character', '5322 / docs/design.md'],
  ['te\u0085st@example.com', 'control_character', 'docs/design.md: C1 control'],
  ['test@example.com\r\n', 'control_character', 'docs/design.md: trailing CRLF is not trimmed'],
  ['test@example.com\nBcc: victim@example.org', 'control_character', 'docs/design.md: header injection'],
  ['\ntest@example.com', 'control_character', 'docs/design.md: leading LF is not trimmed'],
  ['test@example.com\u0000', 'control_character', 'docs/design.md: trailing NUL'],
  [' \t\r\n ', 'control_character', 'docs/design.md: only spaces and tabs are trimmed'],
  [' \t ', 'empty', 'ours'],
  ['te\u200bst@example.com', 'forbidden_character', 'ours: zero-width space'],
  ['test@exa\u200bmple.com', 'forbidden_character', 'ours: zero-width space'],
  ['te\u00adst@example.com', 'forbidden_character', 'ours: soft hyphen'],
  ['test@exam\u00adple.com', 'forbidden_character', 'ours: soft hyphen'],
  ['te\u202est@example.com', 'forbidden_character', 'ours: bidi override'],
  ['te\u00a0st@example.com', 'forbidden_character', 'ours: no-break space'],
  ['te\u2028st@example.com', 'forbidden_character', 'ours: line separator'],
  ['te\u3000st@example.com', 'forbidden_character', 'ours: ideographic space'],
  ['te\ud800st@example.com', 'forbidden_character', 'ours: lone surrogate'],
  ['te\ue000st@example.com', 'forbidden_character', 'ours: private use'],
  ['test@ex%61mple.com', 'invalid_domain', 'ours: no percent-decoding'],
  ['test@example.com:25', 'invalid_domain', '5321'],
  ['test@example.com/path', 'invalid_domain', '5321'],
  ['test@example.com?x', 'invalid_domain', '5321'],
  ['test@exam!ple.com', 'invalid_domain', '1035'],
  ['test@exam+ple.com', 'invalid_domain', '1035'],
  ['test@xn--zz.com', 'invalid_domain', 'ours: bad punycode'],
  ['test@xn--a.com', 'invalid_domain', 'ours: bad punycode'],
  ['test@example.xn--', 'invalid_domain', 'ours: bad punycode'],
  ['<test@example.com>', 'invalid_local_part', '5321 path brackets are not part of the address'],
  ['Test User <test@example.com>', 'forbidden_character', '5322 name-addr is not an address'],
  ['test@example.com, other@example.com', 'forbidden_character', 'ours: one address'],
  ['test;other@example.com', 'invalid_local_part', '5322 specials'],
  ['test,other@example.com', 'invalid_local_part', '5322 specials'],
  ['test:other@example.com', 'invalid_local_part', '5322 specials'],
  ['test<other@example.com', 'invalid_local_part', '5322 specials'],
  ['test>other@example.com', 'invalid_local_part', '5322 specials'],
  ['test[other]@example.com', 'invalid_local_part', '5322 specials'],
  ['test"other@example.com', 'invalid_local_part', '5322 specials'],
  ['test\\other@example.com', 'invalid_local_part', '5322 specials'],
  ['mailto:test@example.com', 'invalid_local_part', 'ours: a URI is not an address'],
  ['test@localhost', 'domain_not_fully_qualified', 'ours'],
  ['test@com', 'domain_not_fully_qualified', 'ours'],
  ['test@.', 'invalid_domain', '1035'],
  ['test@..', 'invalid_domain', '1035'],
  [x(300), 'too_long', 'ours: cheap length guard'],
  [`${x(255)}@example.com`, 'too_long', '3696'],
  [`a@${[x(63), x(63), x(63), x(58)].join('.')}.com`, 'too_long', '3696'],
];

describe('address syntax (RFC 5321/5322 practical subset, see README "Syntax")', () => {
  it('has at least 150 documented cases', () => {
    expect(valid.length + invalid.length).toBeGreaterThanOrEqual(150);
  });

  it.each(valid)('accepts %j (%s, source: %s)', (input, expected) => {
    const parsed = parseAddress(input);
    expect(parsed).toMatchObject({ valid: true });
    expect(expected).toBe('valid');
  });

  it.each(invalid)('rejects %j as %s (source: %s)', (input, expected) => {
    expect(parseAddress(input)).toEqual({ valid: false, failure: expected });
  });

  it('when the domain is internationalised, it keeps Unicode in domain and punycode in asciiDomain', () => {
    expect(parseAddress('Jürgen@Bücher.DE')).toEqual({
      valid: true,
      localPart: 'Jürgen',
      localBase: 'jürgen',
      domain: 'bücher.de',
      asciiDomain: 'xn--bcher-kva.de',
      normalized: 'Jürgen@bücher.de',
    });
  });

  it('when a quoted local part needs no quotes, it is normalized without them', () => {
    expect(parseAddress('"abc.def"@Example.com')).toMatchObject({ normalized: 'abc.def@example.com' });
    expect(parseAddress('"a b"@example.com')).toMatchObject({ normalized: '"a b"@example.com' });
  });

  it('when the local part has a +tag, the base drops it and keeps the case-folded name', () => {
    expect(parseAddress('Jane.Doe+News@example.com')).toMatchObject({
      localPart: 'Jane.Doe+News',
      localBase: 'jane.doe',
    });
  });

  it('normalizes a decomposed UTF-8 local part to NFC', () => {
    expect(parseAddress('Pele\u0301@example.com')).toMatchObject({ localPart: 'Pel\u00e9' });
  });
});
