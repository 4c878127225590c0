import { invokeTool, Plan, Session, selectLatest } from '@plankit/core';
import { PlanningToolsSection, Prompt, renderPlanReminder } from '@plankit/prompt';

const session = new Session();
const planning = new PlanningToolsSection({ session }); // text: 'unicode' for any language
const prompt = new Prompt({ ns: 'demo', key: 'agent', name: 'agent', sections: [planning] });
const { markdown } = prompt.render(); // your system prompt; planning.tools() go to your model
const { planning_setup_plan: setup, planning_mark_step: mark } = planning.tools();

// Feed the model's tool calls to invokeTool: a bad call comes back as a message it can fix.
const steps = [{ title: 'Draft the notes' }, { title: 'Tag the release' }];
await invokeTool(setup, { objective: 'Ship v2', initial_steps: steps }, { session });
const refused = await invokeTool(mark, { step_id: 'S009', status: 'done' }, { session });
await invokeTool(mark, { step_id: 'S001', status: 'done', note: 'Reviewed' }, { session });

console.log(markdown.split('\n')[0]); // ## 1. Planning Tools
console.log(refused.message); // Tool validation failed: Step S009 does not exist.
// Each turn, append the open steps at the end of the request (the cached prefix stays put):
console.log(renderPlanReminder(selectLatest(session, Plan)));
