// Idle connections, run as a process of its own so that its sockets do not slow the test's own client:
// `node idle-flood.mjs <port> <first address> <addresses> <per address> <duration ms> [pipelined]`. From
// each loopback address (from the first on), `per address` connections that send nothing (or, with
// `pipelined`, that many requests at once, and never read an answer) and hold the connection; one the
// edge closes or refuses is opened again a second later. Prints
// {"opened", "peak"} (connections accepted, and at most open at once) as JSON.
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const [port, first, count, perAddress, durationMs, pipelined = '0'] = process.argv.slice(2);
const requests = 'GET /v1/pets?limit=1 HTTP/1.1\r\nhost: petstore\r\n\r\n'.repeat(Number(pipelined));
const [a, b, c, d] = first.split('.').map(Number);
const deadline = Date.now() + Number(durationMs);
let open = 0;
let peak = 0;
let opened = 0;

async function hold(localAddress) {
  while (Date.now() < deadline) {
    const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress });
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      opened++;
      peak = Math.max(peak, ++open);
      if (requests) socket.write(requests);
      socket.once('close', () => open--);
    });
    if (!requests) socket.resume();
    await Promise.race([new Promise((resolve) => socket.once('close', resolve)), sleep(Math.max(0, deadline - Date.now()))]);
    socket.destroy();
    await sleep(1000);
  }
}

const addresses = Array.from({ length: Number(count) }, (_, i) => `${a}.${b}.${c + Math.floor((d + i) / 256)}.${(d + i) % 256}`);
await Promise.all(addresses.flatMap((address) => Array.from({ length: Number(perAddress) }, () => hold(address))));
console.log(JSON.stringify({ opened, peak }));
