import { judgeMailServers, type MailServers } from '../../../src/domain/mail-servers';

describe('DNS judgement (what the mail servers say; no number)', () => {
  it.each([
    [{ outcome: 'mx', hosts: ['mx.example'] }, 'pass', null, true],
    [{ outcome: 'implicit_mx' }, 'pass', null, true],
    [{ outcome: 'null_mx' }, 'fail', 'EMAIL_NULL_MX', false],
    [{ outcome: 'nxdomain' }, 'fail', 'EMAIL_DOMAIN_NOT_FOUND', false],
    [{ outcome: 'no_mail_server' }, 'fail', 'EMAIL_NO_MAIL_SERVER', false],
    [{ outcome: 'unknown', error: 'ETIMEOUT' }, 'unknown', 'EMAIL_DNS_UNKNOWN', true],
  ] as const)(
    'when DNS says %j, the check is %s with reason %s, usable %s',
    (servers, status, reason, usable) => {
      expect(judgeMailServers(servers as MailServers)).toEqual({ status, reason, usable });
    },
  );
});
