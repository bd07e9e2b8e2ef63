import { expect } from 'chai';
import { checkSendAt, SEND_AT_MAX_DAYS, sendAtProblem } from '../../domain/mailings/send-date-check.js';
import { filingInstantMs } from '../../domain/mailings/send-date-filing-time.js';
import { Unprocessable } from '../../domain/errors.js';
import { sendDateNote } from '../../web/pages/mailing-send-date.js';

/** The send date's rules (domain/mailings/send-date-check.ts, send-date-filing-time.ts): Paris days, filed at 00:00 Paris, across daylight saving changes. */
describe('a mailing send date', () => {
  it('is filed at 00:00 Europe/Paris: 23:00 UTC the day before in winter, 22:00 in summer, either side of each change', () => {
    // Summer time starts on Sunday 28 March 2027 at 02:00 Paris; ends on Sunday 25 October 2026 at 03:00 Paris.
    expect(new Date(filingInstantMs('2027-03-28')).toISOString()).to.equal('2027-03-27T23:00:00.000Z');
    expect(new Date(filingInstantMs('2027-03-29')).toISOString()).to.equal('2027-03-28T22:00:00.000Z');
    expect(new Date(filingInstantMs('2026-10-25')).toISOString()).to.equal('2026-10-24T22:00:00.000Z');
    expect(new Date(filingInstantMs('2026-10-26')).toISOString()).to.equal('2026-10-25T23:00:00.000Z');
    expect(new Date(filingInstantMs('2026-12-01')).toISOString()).to.equal('2026-11-30T23:00:00.000Z');
  });

  it('runs from today in Paris (not in UTC) to 180 days ahead', () => {
    // 23:30 UTC on 31 December is already 1 January in Paris.
    const newYearsNight = Date.parse('2026-12-31T23:30:00Z');
    expect(sendAtProblem('2027-01-01', newYearsNight)).to.equal(undefined);
    expect(sendAtProblem('2026-12-31', newYearsNight)).to.match(/is in the past \(today is 2027-01-01/);
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(SEND_AT_MAX_DAYS).to.equal(180);
    expect(sendAtProblem('2027-05-24', now), '180 days after 2026-11-25').to.equal(undefined);
    expect(sendAtProblem('2027-05-25', now)).to.match(/more than 180 days ahead/);
    expect(sendAtProblem('2026-11-24', now)).to.match(/in the past/);
  });

  it('refuses what has the shape of a date but is no calendar day', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(sendAtProblem('2027-02-29', now)).to.match(/not a calendar day/);
    expect(sendAtProblem('2026-13-01', now)).to.match(/not a calendar day/);
    expect(sendAtProblem('2028-02-29', now), 'beyond 180 days, but a day').to.match(/more than 180/);
  });

  it('answers 422 naming sendAt, and lets a mailing without one through', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    expect(() => checkSendAt(undefined, now)).not.to.throw();
    try {
      checkSendAt('2026-11-01', now);
      expect.fail('a past date was accepted');
    } catch (error) {
      expect(error).to.be.instanceOf(Unprocessable);
      expect((error as Unprocessable).details).to.deep.equal([{ field: 'sendAt', message: '2026-11-01 is in the past (today is 2026-11-25 in Europe/Paris)' }]);
    }
  });

  it('is shown on the developer space mailings page, and nothing is shown without one', () => {
    const note = String(sendDateNote({ sendAt: '2027-01-15', status: 'paid' }));
    expect(note).to.include('data-send-at="2027-01-15"');
    expect(note).to.include('15/01/2027');
    expect(note).to.include('annulable sans frais');
    expect(String(sendDateNote({ sendAt: '2027-01-15', status: 'posted' }))).not.to.include('annulable');
    expect(String(sendDateNote({ sendAt: null, status: 'paid' }))).to.equal('');
  });
});
