import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeModel, loadModel, type ModelHeader } from '../../src/domain/model/classifier';
import { RETRAIN_COMMAND, trainedWithNow } from '../../src/domain/model/provenance';
import { check, startDetector } from './helpers';

const PACKAGE = join(__dirname, '..', '..');
const SAMPLE = join(__dirname, 'fixtures', 'training');

/** The model file with its header changed and the same weights (what another checkout might have trained). */
function withHeader(file: Buffer, change: (header: ModelHeader) => ModelHeader): Buffer {
  const { header } = loadModel(file);
  const bytes = 2 << header.space.bits;
  const weights = new Int16Array(Uint8Array.from(file.subarray(file.length - bytes)).buffer);
  return encodeModel(change(header), weights);
}

describe('the training pipeline on the shipped sample', () => {
  const dir = mkdtempSync(join(tmpdir(), 'text-train-'));
  const modelPath = join(dir, 'model.bin');
  let output = '';

  beforeAll(async () => {
    // The training command as a newcomer runs it; one leave-one-source-out split besides the held-out one.
    const run = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        'scripts/train/main.ts',
        '--data',
        SAMPLE,
        '--out',
        modelPath,
        '--no-handmade',
      ].concat(['--only', 'held,sample-shop-mail']),
      { cwd: PACKAGE, maxBuffer: 16 * 1024 * 1024 },
    );
    output = run.stdout;
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when run, it measures the held-out and left-out splits and writes a model recording what it was trained with', () => {
    expect(output).toContain('### held-out 20% (trained on 120, scored on 24');
    expect(output).toContain('### without sample-shop-mail (trained on 108, scored on 36');
    const { header } = loadModel(readFileSync(modelPath));
    expect(header.trainedWith).toEqual(trainedWithNow());
    expect(Object.keys(header.metrics as object)).toEqual([
      'held-out 20%',
      'calibration',
      'without sample-shop-mail',
      'out of fold',
    ]);
  });

  it('when the service starts with that model, it checks texts with it', async () => {
    const detector = await startDetector({ TEXT_MODEL_PATH: modelPath });
    try {
      const ham = await check(detector.url, {
        title: 'Gartenfrage',
        body: 'Meine Tomaten bekommen im August gelbe Blätter. Zu viel Wasser oder zu wenig?',
      });
      const spam = await check(detector.url, {
        title: 'Sie haben gewonnen',
        body: 'Herzlichen Glückwunsch! Sie haben 5000 Euro gewonnen. Gewinn jetzt anfordern: https://win.example/1',
      });
      expect(ham.status).toBe(200);
      expect(ham.body.engine).toBe('model');
      const probability = (r: typeof ham) =>
        (r.body.signals as { model_probability: number }).model_probability;
      expect(probability(spam)).toBeGreaterThan(probability(ham));
    } finally {
      await detector.stop();
    }
  }, 120_000);

  it.each([
    [
      'other rule weights',
      (h: ModelHeader) => ({ ...h, trainedWith: { ...trainedWithNow(), rulesHash: '0'.repeat(16) } }),
      'rule weights 0000000000000000',
    ],
    [
      'another feature extractor',
      (h: ModelHeader) => ({ ...h, trainedWith: { ...trainedWithNow(), extractorVersion: 0 } }),
      'feature extractor version 0',
    ],
    [
      'no record (a file from before the record)',
      (h: ModelHeader) => ({ ...h, trainedWith: undefined }),
      'rule weights unrecorded',
    ],
  ])(
    'when the model was made under %s, the service refuses to start and names the retrain command',
    async (_name, change, what) => {
      const path = join(dir, 'other.bin');
      writeFileSync(path, withHeader(readFileSync(modelPath), change));
      const started = startDetector({ TEXT_MODEL_PATH: path });
      await expect(started).rejects.toThrow(what);
      await expect(started).rejects.toThrow(RETRAIN_COMMAND);
    },
  );
});
