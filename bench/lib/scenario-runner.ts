import { TARGETS } from '../targets';
import { progress } from './log';
import { Sizes } from './options';
import { Figures, Report, ScenarioLine, scenarioLine } from './report';

/** Runs one scenario; a failure becomes the scenario's line (with an `error`), never the run's. */
export async function runScenario(
  report: Report,
  name: string,
  sizes: Sizes,
  scenario: () => Promise<ScenarioLine>,
  where: Figures = {},
): Promise<void> {
  const label = typeof where.database === 'string' ? `${name} (${where.database})` : name;
  progress(`${label}: running`);
  try {
    report.add(await scenario());
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    progress(`${name}: failed: ${message}`);
    report.add(
      scenarioLine(name, { mode: sizes.mode, ...where, error: message }, TARGETS[name] ?? []),
    );
  }
}
