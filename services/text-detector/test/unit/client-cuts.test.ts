import { readModelFile } from '../../src/data-access/model-file';
import { cutSteps, withLearntCuts, type Cuts } from '../../src/domain/client-cuts';

describe("a client's learnt cuts", () => {
  const model = readModelFile();
  const thresholds = { spamThreshold: 0.8, suspiciousThreshold: 0.5 };
  const marginAt = (probability: number) => {
    const margin = model.marginFor(probability, 'en');
    return { spam: margin, suspicious: margin };
  };
  const report = (cuts: Cuts, probability: number, label: 'spam' | 'ham') =>
    cutSteps(marginAt(probability), label, cuts, thresholds, model, 'en') ?? cuts;

  it('when ham judged spam is reported, the spam cut rises, and the text is no longer spam for the client', () => {
    const once = report({ spam: 0, suspicious: 0 }, 0.9, 'ham');
    expect(once).toEqual({ spam: expect.any(Number) as number, suspicious: 0 });
    expect(once.spam).toBeGreaterThan(0);
    let cuts: Cuts = { spam: 0, suspicious: 0 };
    for (let i = 0; i < 6; i++) cuts = report(cuts, 0.9, 'ham');
    expect(withLearntCuts(thresholds, cuts, model, 'en').spamThreshold).toBeGreaterThan(0.9);
  });

  it('when spam judged suspicious is reported, the spam cut falls by less than a ham report raises it, and only so far', () => {
    const lowered = report({ spam: 0, suspicious: 0 }, 0.7, 'spam');
    const raised = report({ spam: 0, suspicious: 0 }, 0.9, 'ham');
    expect(lowered.spam).toBeLessThan(0);
    expect(-lowered.spam).toBeLessThan(raised.spam);
    let cuts: Cuts = { spam: 0, suspicious: 0 };
    for (let i = 0; i < 1000; i++) cuts = report(cuts, 0.79, 'spam');
    expect(withLearntCuts(thresholds, cuts, model, 'en').spamThreshold).toBeGreaterThan(0.5);
  });

  it('when spam judged ham is reported, the suspicious cut falls, never above the spam cut', () => {
    let cuts: Cuts = { spam: 0, suspicious: 0 };
    for (let i = 0; i < 5; i++) cuts = report(cuts, 0.2, 'spam');
    expect(cuts.suspicious).toBeLessThan(0);
    expect(cuts.spam).toBe(0);
    for (let i = 0; i < 100; i++) cuts = report(cuts, 0.6, 'ham');
    const moved = withLearntCuts(thresholds, cuts, model, 'en');
    expect(moved.suspiciousThreshold).toBeGreaterThan(0.5);
    expect(moved.suspiciousThreshold).toBeLessThanOrEqual(moved.spamThreshold);
  });

  it('when spam is held below the spam cut only by the correction that does not count for spam, the spam cut stays', () => {
    const cuts = { spam: 0, suspicious: 0 };
    const heldBack = { spam: marginAt(0.7).spam, suspicious: marginAt(0.9).suspicious };
    expect(cutSteps(heldBack, 'spam', cuts, thresholds, model, 'en')).toBeUndefined();
    expect(cutSteps(heldBack, 'ham', cuts, thresholds, model, 'en')).toEqual({
      spam: 0,
      suspicious: expect.any(Number) as number,
    });
  });

  it('when a report is on the right side of the cuts already, nothing moves', () => {
    expect(
      cutSteps(marginAt(0.9), 'spam', { spam: 0, suspicious: 0 }, thresholds, model, 'en'),
    ).toBeUndefined();
    expect(
      cutSteps(marginAt(0.2), 'ham', { spam: 0, suspicious: 0 }, thresholds, model, 'en'),
    ).toBeUndefined();
  });
});
