import { retentionWorker } from '../../kit/retention.js';
import { AutomationRun } from './automation-run.entity.js';

/** automations/runs keeps a run 30 days (the contract's description says so), its automation deleted or not. */
export const runRetention = retentionWorker<AutomationRun>({
  name: 'automation.run-retention',
  entity: AutomationRun,
  days: 30,
  expired: (cutoff) => ({ createdAt: { $lt: cutoff } }),
  message: 'old automation runs deleted',
});
