import { createPlanningTools, invokeTool, renderPlan, Session } from '@plankit/core';

const session = new Session();
const [setup, add, , mark, , read] = createPlanningTools(session);

// Hand these tools to your model; feed its tool calls to invokeTool.
await invokeTool(setup, { objective: 'Ship v2', initial_steps: [{ title: 'Draft' }] }, { session });
await invokeTool(add, { steps: [{ title: 'Tag the release' }] }, { session });

const refused = await invokeTool(mark, { step_id: 'S009', status: 'done' }, { session });
console.log(refused.message); // Tool validation failed: Step S009 does not exist.

await invokeTool(mark, { step_id: 'S001', status: 'done', note: 'Reviewed' }, { session });
const { value: plan } = await invokeTool(read, {}, { session });
if (plan) console.log(renderPlan(plan));
// Objective: Ship v2
// Status: active
//
// S001 [done] Draft | notes: Reviewed
// S002 [pending] Tag the release
