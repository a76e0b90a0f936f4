import { createDecisionBroker, type DriverDescriptor, type Policy } from '@verdict/engine';

/** Runs one tool call that needs permission, asking a human through `ask` (your UI). */
export async function runToolCall(policy: Policy, driver: DriverDescriptor, ask: (title: string) => Promise<boolean>) {
  const broker = createDecisionBroker({ policy, descriptor: driver, runId: 'run-42' });
  const ui = (async () => {
    for await (const event of broker.events()) {
      if (event.type === 'notice') console.warn(event.message);
      else if (await ask(event.title)) event.approve();
      else event.deny('declined in the UI');
    }
  })().catch((err: unknown) => broker.cancel(err)); // a reader that stops must cancel the run
  try {
    // Resolves { status: 'continue', outcome, ... }; throws RunError on denial/timeout (isApprovalDenied).
    return await broker.request({ kind: 'permission', title: 'run `npm test`', toolCallId: 'call-1' });
  } finally {
    broker.close(); // the run ended: pending requests expire and the stream ends
    await ui;
  }
}
