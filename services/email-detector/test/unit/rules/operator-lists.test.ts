import { domainToASCII } from 'node:url';
import { createOperatorList, operatorDecision } from '../../../src/domain/operator-lists';

describe('operator and client lists (an address, or a domain with its subdomains; allow wins)', () => {
  const lists = {
    allow: createOperatorList(['boss@blocked.example'], domainToASCII),
    deny: createOperatorList(['blocked.example', 'Spammer+x@Example.org'], domainToASCII),
  };

  it.each([
    ['a domain that only ends like the listed one (below)', 'a', 'notblocked.example', null],
    ['the listed domain (at)', 'a', 'blocked.example', 'deny'],
    ['a subdomain of it (above)', 'a', 'x.blocked.example', 'deny'],
    ['another mailbox at the domain of a listed address', 'other', 'example.org', null],
    ['the listed address (its +tag and case ignored)', 'spammer', 'example.org', 'deny'],
    ['an allow-listed address in a deny-listed domain', 'boss', 'blocked.example', 'allow'],
  ])('when the address is %s, the decision is %s', (_name, localBase, domain, decision) => {
    expect(operatorDecision(lists, localBase, domain)).toBe(decision);
  });
});
