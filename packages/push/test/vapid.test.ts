import { expect } from 'chai';
import webpush from 'web-push';
import { appleSubjectProblem, createVapidHeaderCache } from '../src/vapid.js';
import { verifyVapidHeader } from './support/vapid-verify.js';

describe('push VAPID header cache', () => {
  const keys = webpush.generateVAPIDKeys();
  const subject = 'mailto:push@example.com';
  // web-push refuses an exp more than 24 h after its own clock, so the fake clock starts in the past.
  const start = Math.floor(Date.now() / 1000 - 3 * 24 * 3600) * 1000;

  it('signs one JWT per push-service origin however many endpoints and sends it serves', () => {
    const vapid = createVapidHeaderCache({ subject, ...keys });
    const headers = new Set<string>();
    for (let i = 0; i < 1000; i += 1) {
      headers.add(vapid.headerFor(`https://fcm.googleapis.com/fcm/send/sub-${i}`));
      headers.add(vapid.headerFor(`https://updates.push.services.mozilla.com/wpush/v2/sub-${i}`));
    }
    expect(vapid.signatures).to.equal(2);
    expect(headers.size).to.equal(2);
  });

  it('produces an ES256 token that verifies against the public key, with aud = origin, sub and exp', () => {
    let now = start;
    const vapid = createVapidHeaderCache({ subject, ...keys, now: () => now });
    const claims = verifyVapidHeader(vapid.headerFor('https://127.0.0.1:8443/push/abc?x=1'), keys.publicKey);
    expect(claims).to.deep.equal({ aud: 'https://127.0.0.1:8443', exp: start / 1000 + 12 * 3600, sub: subject });
    now += 1000;
    const fcm = verifyVapidHeader(vapid.headerFor('https://fcm.googleapis.com/fcm/send/x'), keys.publicKey);
    expect(fcm.aud).to.equal('https://fcm.googleapis.com');
  });

  it('when the cached token is within refreshBeforeSec of its exp, then a new one is signed', () => {
    let now = start;
    const vapid = createVapidHeaderCache({ subject, ...keys, lifetimeSec: 12 * 3600, refreshBeforeSec: 3600, now: () => now });
    const endpoint = 'https://fcm.googleapis.com/fcm/send/x';
    const first = vapid.headerFor(endpoint);
    now = start + (11 * 3600 - 1) * 1000;
    expect(vapid.headerFor(endpoint)).to.equal(first);
    expect(vapid.signatures).to.equal(1);
    now = start + 11 * 3600 * 1000;
    const second = vapid.headerFor(endpoint);
    expect(second).to.not.equal(first);
    expect(vapid.signatures).to.equal(2);
    expect(verifyVapidHeader(second, keys.publicKey).exp).to.equal(start / 1000 + 23 * 3600);
  });

  it('when asked for a lifetime above 24 h, then the token still expires within 24 h', () => {
    const vapid = createVapidHeaderCache({ subject, ...keys, lifetimeSec: 48 * 3600, now: () => start });
    const { exp } = verifyVapidHeader(vapid.headerFor('https://fcm.googleapis.com/x'), keys.publicKey);
    expect(exp - start / 1000).to.be.at.most(24 * 3600).and.at.least(23 * 3600);
  });

  it('when the keys or subject are unusable, then creating the cache fails at once', () => {
    expect(() => createVapidHeaderCache({ subject, publicKey: keys.publicKey, privateKey: 'short' })).to.throw(/private key/i);
    expect(() => createVapidHeaderCache({ subject: 'not a url', ...keys })).to.throw(/subject/i);
    expect(() => createVapidHeaderCache({ subject, ...keys, refreshBeforeSec: 13 * 3600 })).to.throw(RangeError);
  });
});

describe("push VAPID subject: Apple's push service's rule", () => {
  it('accepts a mailto: address or an https: URL of a public domain', () => {
    for (const subject of ['mailto:push@example.com', 'mailto:ops.team@mail.example.co.uk', 'https://push.example.net', 'https://example.org/contact']) {
      expect(appleSubjectProblem(subject), subject).to.equal(null);
    }
  });

  it('names what Safari\'s push service refuses with 403 BadJwtToken: a localhost or dotless domain, a space or angle brackets, another scheme, no URL', () => {
    expect(appleSubjectProblem('mailto:push@localhost')).to.equal('localhost is not a public domain name');
    expect(appleSubjectProblem('https://localhost:8080')).to.equal('localhost is not a public domain name');
    expect(appleSubjectProblem('https://app.localhost')).to.equal('app.localhost is not a public domain name');
    expect(appleSubjectProblem('mailto:push@intranet')).to.equal('intranet is not a public domain name');
    expect(appleSubjectProblem('mailto: <push@example.com>')).to.equal('it is not one plain address (no space, no angle brackets)');
    expect(appleSubjectProblem('mailto:')).to.equal('it is not one plain address (no space, no angle brackets)');
    expect(appleSubjectProblem('http://example.com')).to.equal('it is neither a mailto: address nor an https: URL');
    expect(appleSubjectProblem('push@example.com')).to.equal('it is not a URL');
  });
});
