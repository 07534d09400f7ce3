// The bench's own check (`calibration.emptyScript`): a Node process running an empty script file
// next to `node -e 0`, the floor of every process figure, in the same interleaved rounds. Both do
// the same work, so the ratio is the noise of the run: far from 1×, the other process figures
// cannot be trusted either, and a value under the below-floor tolerance is flagged as a bench bug.
// It is also the cheapest figure, which the bench's own tests measure.
import fs from "node:fs";
import path from "node:path";
import { figure, measuredOf, type BenchFigure } from "./figure";
import { interleavedRounds, samplesOf, type ProducerOptions } from "./runner";

export async function calibrationFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  if (!options.wants("calibration.emptyScript")) return [];
  const plannedRounds = options.rounds ?? (options.quick ? 9 : 21);
  const script = path.join(options.directory, "empty-script.js");
  fs.writeFileSync(script, "");
  const nodeProcess = (args: readonly string[]) => () => options.meter.run({ args, cwd: options.directory }).sample;
  const { samples, rounds } = interleavedRounds(
    [
      { name: "floor", measure: nodeProcess(["-e", "0"]) },
      { name: "empty", measure: nodeProcess([script]) },
    ],
    // No time budget: the figure is cheap, and its below-floor check needs its rounds.
    { rounds: plannedRounds, warmUps: 1 },
  );
  return [
    figure({
      id: "calibration.emptyScript",
      label: "node <empty script> (the floor's own noise)",
      workload: "an empty script file",
      rounds,
      measured: measuredOf(samplesOf(samples, "empty")),
      floor: { label: "node -e 0", measured: measuredOf(samplesOf(samples, "floor")) },
      basis: "cpu",
    }),
  ];
}
