import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asFirstPerson, classifyClaim, isOutlook, readCues, topicOf } from './classify.ts';
import { findDeadline } from './deadline.ts';
import { ClassificationSchema } from './types.ts';
import { documentPeriod } from './periods.ts';

// Sentences here are written for these tests (invented names, none from the sample pack).

describe('classifyClaim: claim types', () => {
  const cases: Array<[string, string, string[]?]> = [
    ['We will plant 3,000 street trees in Harwick by October 2027.', 'promise'],
    ["We'll reopen the Saltmarsh library within 18 months.", 'promise'],
    ['I promise to publish every grant we award on our website.', 'promise'],
    ['Our goal is to halve food waste at the Pellow depot by 2029.', 'promise'],
    ['Orrin Foods pledges to cut plastic packaging by 30% by 2029.', 'promise', ['Orrin Foods']],
    ['We expect grain prices to climb by 15% before the end of 2026.', 'prediction'],
    ['Ferry traffic is likely to double by 2030.', 'prediction'],
    ['Fuel prices should fall by 4% next year.', 'prediction'],
    ['Rainfall in the Dunnock hills could drop by a quarter next summer.', 'prediction'],
    ['The new bypass will carry 20,000 vehicles a day.', 'prediction'],
    ['Cyclists should wear a helmet on the Westbrook path.', 'guidance'],
    ['We recommend that tenants test smoke alarms every month.', 'guidance'],
    ['Keep medicines out of reach of children.', 'guidance'],
    ['Do not leave pans unattended on the hob.', 'guidance'],
    ['Walkers are advised to carry water on the coastal route.', 'guidance'],
    ['Harwick council collected 41,000 tonnes of waste in 2022.', 'factual'],
    ['Ferry fares went up by 8% last spring.', 'factual'],
    ['The Saltmarsh bridge reopened on 4 March 2024.', 'factual'],
  ];
  it.each(cases)('%s → %s', (sentence, type, selfNames) => {
    expect(classifyClaim(sentence, { said_on: '2025-01-10', self_names: selfNames }).claim_type).toBe(type);
  });

  it('takes a body\'s future deed as its promise, spoken in the passive or of a thing it runs, in anyone\'s document', () => {
    const ctx = { said_on: '2025-01-10', self_names: ['Pellow Ferries'], speaks_for_body: true };
    expect(classifyClaim('The old pier will be demolished by the end of March 2027.', ctx).claim_type).toBe('promise');
    expect(classifyClaim('Fares will be frozen until April 2026.', ctx).claim_type).toBe('promise');
    expect(classifyClaim('Route 9 will start running on Monday 1 September.', ctx).claim_type).toBe('promise');
    // A thing the body runs, named ("Fenwright Hall", "the Lyon route"), and a deed its officer reports.
    expect(classifyClaim('Fenwright Hall will reopen on Saturday 19 April 2025.', ctx).claim_type).toBe('promise');
    expect(classifyClaim('Ms Tallis said the Lyon route would start in October.', ctx).claim_type).toBe('promise');
    expect(classifyClaim('The Dunlow Fell gigafactory will create 900 direct jobs by the end of 2027.', ctx).claim_type).toBe('promise');
    // A level or a state is no deed, and another body's deed is a forecast.
    expect(classifyClaim('Fares will rise by the end of 2026.', ctx).claim_type).not.toBe('promise');
    expect(classifyClaim('The Harwick Health Board will open a clinic at the port by 2027.', ctx).claim_type).toBe('prediction');
  });

  it('takes a forecast said as a wager or a conviction as a prediction', () => {
    expect(classifyClaim("I'd put money on Harwick Town finishing in the top three this season.", { said_on: '2025-01-10' }).claim_type).toBe('prediction');
    expect(classifyClaim("I'll stick my neck out: turnout will be above 60 per cent in May.", { said_on: '2025-01-10' }).claim_type).toBe('prediction');
    expect(classifyClaim("Turnout will be above 55 per cent, I'm certain of that.", { said_on: '2025-01-10' }).claim_type).toBe('prediction');
  });

  it('takes a body\'s outlook in the passive as guidance, in anyone\'s document', () => {
    const ctx = { said_on: '2025-01-10', self_names: ['Pellow Ferries'], speaks_for_body: true };
    expect(classifyClaim('Underlying operating margin for the full year is now expected to be between 15% and 16%.', ctx).claim_type).toBe('guidance');
    expect(classifyClaim('Turnover of between £8.5 million and £9 million is expected in 2026.', ctx).claim_type).toBe('guidance');
    expect(classifyClaim('We are guiding to an operating margin of 2.5 to 3 per cent this year.', ctx).claim_type).toBe('guidance');
    expect(classifyClaim('For 2026 we are targeting a combined ratio of 93% to 95%.', ctx).claim_type).toBe('guidance');
    expect(isOutlook('We are guiding to an operating margin of 2.5 to 3 per cent this year.')).toBe(true);
    // The economy's is a forecast of the world.
    expect(classifyClaim('Inflation is expected to fall below 3% in 2026.', ctx).claim_type).toBe('prediction');
  });

  it('takes the present for the future only with a time named as one, and not a deed reported in the past', () => {
    const ctx = { said_on: '2025-01-10', self_names: ['Pellow Ferries'], speaks_for_body: true };
    expect(classifyClaim('The new timetable starts on the first of April.', ctx).claim_type).toBe('promise');
    expect(classifyClaim('He said every ferry would take card payments by spring 2026.', ctx).claim_type).toBe('promise');
    expect(classifyClaim('Over the three days of the storm we issued more than 60 sailing alerts.', ctx).claim_type).toBe('factual');
    expect(classifyClaim('This winter our crews ran 55 extra sailings to the outer isles.', ctx).claim_type).toBe('factual');
    expect(classifyClaim('We pay every valid compensation claim within 28 days of receiving it.', ctx).claim_type).toBe('factual');
  });

  it('takes what the economy, a market or a contest will do as a forecast, whoever says it', () => {
    const ctx = { said_on: '2025-01-10', self_names: ['Pellow Rovers'], speaks_for_body: true };
    expect(classifyClaim('We will be promoted this season.', ctx).claim_type).toBe('prediction');
    expect(classifyClaim('Harwick Town will win the league in 2025/26.', ctx).claim_type).toBe('prediction');
    expect(classifyClaim('Inflation will be under three percent by April.', ctx).claim_type).toBe('prediction');
    expect(classifyClaim('Turnout will be above 70 percent in the May election.', ctx).claim_type).toBe('prediction');
    // A deed the body does stays its promise, a name's word "National" is no economy, and finishing a job is no contest.
    expect(classifyClaim('Work on the Harnby National Velodrome will start before the end of 2025.', ctx).claim_type).toBe('promise');
    expect(classifyClaim('We will finish the new stand by the end of 2026.', ctx).claim_type).toBe('promise');
  });

  it('takes a forecast a person makes in their own name as a prediction, and the body\'s in its name as guidance', () => {
    const ctx = { said_on: '2025-01-10', self_names: ['Pellow Ferries'], speaks_for_body: true };
    expect(classifyClaim('We expect our passenger numbers to pass two million in 2025.', ctx).claim_type).toBe('guidance');
    expect(classifyClaim('I expect our passenger numbers to pass two million in 2025.', ctx).claim_type).toBe('prediction');
    expect(classifyClaim("I'd expect the harbour to handle more freight in 2025.", ctx).claim_type).toBe('prediction');
  });

  it('takes a deed reported against a promise made before as a statement of fact, unless it promises again', () => {
    const ctx = { said_on: '2025-01-10', self_names: ['Pellow Ferries'], speaks_for_body: true };
    expect(classifyClaim('We opened 22 new ticket offices in 2024, two more than we promised.', ctx).claim_type).toBe('factual');
    expect(classifyClaim('The new covered gangway at Kilbrae opened in December, as we promised.', ctx).claim_type).toBe('factual');
    expect(classifyClaim('During 2024 we welcomed 124 new deckhands, beating our pledge of 120.', ctx).claim_type).toBe('factual');
    expect(classifyClaim('We will keep two return sailings every day this winter, as we promised the assembly.', ctx).claim_type).toBe('promise');
  });

  it('reads a self-reference as first person only when told the speaker\'s names', () => {
    const sentence = 'Orrin Foods will open a second bakery in Pellow by 2027.';
    expect(classifyClaim(sentence, { said_on: '2025-01-10', self_names: ['Orrin Foods'] }).claim_type).toBe('promise');
    expect(classifyClaim(sentence, { said_on: '2025-01-10' }).claim_type).toBe('prediction');
    expect(asFirstPerson("Orrin Foods' and Orrin Foods's plans", ['Orrin Foods'])).toBe("we' and our plans");
  });

  it('does not take "we should" or "May" as advice or a hedge', () => {
    expect(classifyClaim('We should have cut the rates in 2019.').claim_type).not.toBe('guidance');
    expect(classifyClaim('The depot opened in May 2021 with 40 staff.').claim_type).toBe('factual');
    expect(readCues('The depot opened in May 2021 with 40 staff.').forecast).toBe(false);
  });

  it('flags questions, greetings and opinions for the extractor', () => {
    expect(readCues('Will the bridge be ready by 2026?').question).toBe(true);
    expect(readCues('Good morning and welcome to Harwick.').greeting).toBe(true);
    expect(readCues('I think the new market is wonderful.').opinion).toBe(true);
    expect(readCues('We are proud of our wonderful staff.').vague).toBe(true);
    expect(readCues('Ferry fares went up by 8% last spring.')).toMatchObject({ question: false, greeting: false, opinion: false });
  });
});

describe('findDeadline', () => {
  const cases: Array<[string, string, string | null]> = [
    ['We will finish the pier by March 2026.', '2024-05-01', '2026-03-31'],
    ['The depot will close by the end of 2025.', '2024-05-01', '2025-12-31'],
    ['We will rebuild the school within two years.', '2024-03-10', '2026-03-10'],
    ['We will finish the works within six months.', '2024-03-10', '2024-09-10'],
    ['Fares will stay frozen until 2027.', '2024-05-01', '2027-12-31'],
    ['No new fees will be added before 2028.', '2024-05-01', '2027-12-31'],
    ['We will break even by mid-2027.', '2024-05-01', '2027-06-30'],
    ['We will publish the audit by 31 March 2025.', '2024-05-01', '2025-03-31'],
    ['Prices will rise again next year.', '2025-06-01', '2026-12-31'],
    ['Traffic will fall by 8% by 2026.', '2024-05-01', '2026-12-31'],
    ['The plant will open in the first quarter of 2027.', '2024-05-01', '2027-03-31'],
    ['Demand will peak in summer 2026.', '2024-05-01', '2026-08-31'],
    // "this winter" sets the scene; "by June 2025" is when it falls due.
    ['I expect this winter\'s outbreak to be over by June 2025.', '2025-01-20', '2025-06-30'],
    ['We opened the pier in 2019 and will extend it by 2029.', '2024-05-01', '2029-12-31'],
    ['We cut fares by 5% in 2022.', '2024-05-01', null],
    ['We will keep listening to residents.', '2024-05-01', null],
  ];
  it.each(cases)('%s (said %s) → %s', (sentence, saidOn, due) => {
    expect(findDeadline(sentence, saidOn)).toBe(due);
  });

  it('gives factual and guidance claims no deadline even when they name a date', () => {
    expect(classifyClaim('Harwick council collected 41,000 tonnes of waste in 2029.', { said_on: '2025-01-10' }).deadline).toBeNull();
    expect(classifyClaim('Residents should renew their permits by March 2026.', { said_on: '2025-01-10' }).deadline).toBeNull();
  });

  it('puts "by <month> <year>" at the end of that month, for any month and year after said_on', () => {
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 11 }), fc.integer({ min: 2026, max: 2039 }), fc.integer({ min: 2, max: 9000 }), (m, year, n) => {
        const sentence = `We will build ${n.toLocaleString('en-GB')} homes in Pellow by ${months[m]} ${year}.`;
        const c = classifyClaim(sentence, { said_on: '2025-02-14' });
        const last = new Date(Date.UTC(year, m + 1, 0)).toISOString().slice(0, 10);
        expect(c.claim_type).toBe('promise');
        expect(c.deadline).toBe(last);
      }),
      { numRuns: 40 },
    );
  });
});

describe('topicOf', () => {
  it.each([
    ['Waiting lists at the Harwick clinic fell to 900 patients.', 'health'],
    ['The Harwick Gazette hired 14 journalists and cut its paywall.', 'media'],
    ['Tram passengers made 3 million journeys in 2023.', 'transport'],
    ['Average rents for tenants in Pellow rose by 6%.', 'housing'],
    ['Burglary and theft fell by a tenth after police patrols doubled.', 'public_safety'],
    ['Pupils at Saltmarsh school sat 1,200 exams.', 'education'],
    ['We had a lovely afternoon by the sea.', 'other'],
  ])('%s → %s', (sentence, topic) => {
    expect(topicOf(sentence)).toBe(topic);
  });
});

describe('classifyClaim output', () => {
  it('always fits the Classification schema, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const c = classifyClaim(text, { said_on: '2024-06-01' });
        expect(ClassificationSchema.safeParse(c).success).toBe(true);
        if (c.deadline) expect(c.deadline > '2024-06-01').toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('named periods (periods.ts)', () => {
  it.each([
    ['Season tickets will stay at £99 for the 2025/26 season.', '2025-03-01', '2026-05-31'],
    ['We will build 35 km of cycle lanes by the end of the 2024/25 financial year.', '2024-06-01', '2025-03-31'],
    ['We expect the bill to be £512 in 2025-26.', '2025-01-28', '2026-03-31'],
    ['We will open 150 warm hubs this winter.', '2024-10-01', '2025-02-28'],
    ['We will open 150 warm hubs this winter.', '2025-01-10', '2025-02-28'],
    ['Flu admissions will peak next winter.', '2024-10-01', '2025-02-28'],
    ['Flu admissions will peak next winter.', '2025-01-10', '2026-02-28'],
    ['Heat deaths will rise next summer.', '2025-05-20', '2025-08-31'],
    ['Revenue will grow in Q3 2025.', '2025-02-01', '2025-09-30'],
    ['Margins will improve in the second half of 2025.', '2025-02-01', '2025-12-31'],
    ['Both will be in the bottom three come May.', '2024-08-10', '2025-05-31'],
    ['We expect to hand out 3.1 million parcels in the year to March.', '2024-11-05', '2025-03-31'],
  ])('%s (said %s) → %s', (sentence, said, due) => {
    expect(findDeadline(sentence, said)).toBe(due);
  });

  it('a claim that names no date of its own takes the season its document is about', () => {
    expect(documentPeriod('Our predictions for the 2024/25 season', 'Who goes up?', '2024-08-01')).toBe('2025-05-31');
    expect(documentPeriod('Two seasons', 'The 2023/24 season and the 2024/25 season.', '2023-08-01')).toBeNull();
    expect(classifyClaim('Brindmoor will win the league.', { said_on: '2024-08-01', doc_period: '2025-05-31' }).deadline).toBe('2025-05-31');
  });
});
