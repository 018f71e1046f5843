import { Topology } from './topology';
it('starts', async () => {
  const t = await Topology.start();
  console.log(t.baseUrl, await t.serverStates());
  await t.stop();
}, 60000);
