// The console's site settings form and its exports' progress (docs/console.md, "Site settings",
// "Exports"): what the form sends, the API's refusals put at their fields, and the rows of a CSV
// counted as it streams, whatever its chunks.
import { expect } from 'chai';
import fc from 'fast-check';
import { createRowCounter } from '../src/lib/export-file';
import { splitSettingsMessage } from '../src/lib/field-errors';
import { formOf, settingsChange } from '../src/lib/settings-form';

describe('console: the site settings form', () => {
  it('sends numbers typed as numbers, other text as it is (for the API to refuse), and empty fields as null', () => {
    expect(settingsChange({ throttle: '6000', capCampaigns: '3', capHours: '24', zone: 'Europe/Lisbon', quietFrom: '21:00', quietTo: ' 08:00 ' })).to.deep.equal({
      defaultThrottlePerMinute: 6000,
      frequencyCap: { campaigns: 3, hours: 24 },
      timeZone: 'Europe/Lisbon',
      quietHours: { from: '21:00', to: '08:00' },
    });
    expect(settingsChange({ throttle: ' ', capCampaigns: '', capHours: '', zone: '', quietFrom: ' ', quietTo: '' })).to.deep.equal({
      defaultThrottlePerMinute: null,
      frequencyCap: null,
      timeZone: null,
      quietHours: null,
    });
    expect(settingsChange({ throttle: '1e3', capCampaigns: '2.5', capHours: '', zone: '', quietFrom: '9pm', quietTo: '' })).to.deep.equal({
      defaultThrottlePerMinute: '1e3',
      frequencyCap: { campaigns: 2.5, hours: '' },
      timeZone: null,
      quietHours: { from: '9pm', to: '' },
    });
  });

  it('fills the form from the settings, UTC as none set', () => {
    expect(formOf({ defaultThrottlePerMinute: null, frequencyCap: null, timeZone: 'UTC', quietHours: null })).to.deep.equal({
      throttle: '',
      capCampaigns: '',
      capHours: '',
      zone: '',
      quietFrom: '',
      quietTo: '',
    });
    expect(formOf({ defaultThrottlePerMinute: 60, frequencyCap: { campaigns: 1, hours: 720 }, timeZone: 'Asia/Tokyo', quietHours: { from: '22:30', to: '07:00' } })).to.deep.equal({
      throttle: '60',
      capCampaigns: '1',
      capHours: '720',
      zone: 'Asia/Tokyo',
      quietFrom: '22:30',
      quietTo: '07:00',
    });
  });

  it("puts each text of a refusal at its setting, texts with commas of their own included, and keeps unknown ones whole", () => {
    const throttle = 'defaultThrottlePerMinute must be a whole number from 1 to 1000000, or null';
    const campaigns = 'frequencyCap.campaigns must be a whole number from 1 to 1000';
    const hours = 'frequencyCap.hours must be a whole number from 1 to 720 (30 days)';
    const zone = 'timeZone must be an IANA time zone such as Europe/Lisbon, or null';
    const shape = 'frequencyCap must be {"campaigns", "hours"} or null';
    expect(splitSettingsMessage([throttle, campaigns, hours, zone].join(', '))).to.deep.equal({
      byField: { defaultThrottlePerMinute: [throttle], 'frequencyCap.campaigns': [campaigns], 'frequencyCap.hours': [hours], timeZone: [zone] },
      rest: [],
    });
    expect(splitSettingsMessage(shape)).to.deep.equal({ byField: { frequencyCap: [shape] }, rest: [] });
    expect(splitSettingsMessage('Unknown setting: quietTime')).to.deep.equal({ byField: {}, rest: ['Unknown setting: quietTime'] });
    const from = 'quietHours.from must be a time of day as HH:MM (00:00 to 23:59)';
    const to = 'quietHours.to must be a time of day as HH:MM (00:00 to 23:59), not the same as quietHours.from';
    const window = 'quietHours must be {"from", "to"} or null';
    expect(splitSettingsMessage([campaigns, from, to].join(', '))).to.deep.equal({ byField: { 'frequencyCap.campaigns': [campaigns], 'quietHours.from': [from], 'quietHours.to': [to] }, rest: [] });
    expect(splitSettingsMessage(window)).to.deep.equal({ byField: { quietHours: [window] }, rest: [] });
  });
});

describe("console: an export's rows counted as it streams", () => {
  const csv = 'id,title\n1,"Sale, today"\n2,"Two\nlines ""quoted"""\n3,plain\n';
  const bytes = new TextEncoder().encode(csv);

  it('counts records, not line breaks inside quoted fields, whatever the chunks', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 8 }), (cuts) => {
        const counter = createRowCounter();
        const bounds = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        for (let i = 1; i < bounds.length; i++) counter.add(bytes.subarray(bounds[i - 1], bounds[i]));
        expect(counter.rows).to.equal(3);
      }),
      { numRuns: 200 },
    );
  });

  it('counts no rows for a header alone or nothing', () => {
    const counter = createRowCounter();
    expect(counter.rows).to.equal(0);
    counter.add(new TextEncoder().encode('id,title\n'));
    expect(counter.rows).to.equal(0);
  });
});
