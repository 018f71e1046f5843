import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { aroundHandler } from './around-handler';
import { Location } from './location.decorator';

const calls: string[] = [];
const Trace = (name: string) =>
  aroundHandler(async (request, reply, handler) => {
    calls.push(`${name} sees ${(request as unknown as { id: string }).id} ${(reply as unknown as { id: string }).id}`);
    return handler();
  });

@Controller('things')
class ThingsController {
  @Post()
  @HttpCode(201)
  @Trace('outer')
  @Trace('inner')
  create(@Body() body: { name: string }): Promise<string> {
    calls.push(`handler got ${JSON.stringify(body)} from ${this.constructor.name}`);
    return Promise.resolve(body.name);
  }

  @Post('located')
  @Location((name: string) => `/things/${name}`)
  located(): Promise<string> {
    return Promise.resolve('rex');
  }
}

describe('aroundHandler', () => {
  const prototype = ThingsController.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;

  it('appends a hidden @Req and @Res (passthrough) per wrapper after the declared parameters', () => {
    const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, ThingsController, 'create') as Record<string, { index: number; data?: unknown }>;
    expect(
      Object.values(args)
        .map((arg) => arg.index)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps what the route decorators applied before it recorded on the method', () => {
    expect(Reflect.getMetadata(METHOD_METADATA, prototype.create)).toBeDefined();
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, prototype.create)).toBe(201);
    expect(prototype.create.name).toBe('create');
  });

  it('runs the lowest wrapper innermost, each with its own request and reply, and calls the handler with its declared arguments', async () => {
    calls.length = 0;
    const controller = new ThingsController();
    // As Nest calls it: the declared parameter, then inner's request and reply, then outer's.
    const result = await prototype.create.call(controller, { name: 'Rex' }, { id: 'req-i' }, { id: 'rep-i' }, { id: 'req-o' }, { id: 'rep-o' });
    expect(result).toBe('Rex');
    expect(calls).toEqual(['outer sees req-o rep-o', 'inner sees req-i rep-i', 'handler got {"name":"Rex"} from ThingsController']);
  });

  it('Location sets the header from the result', async () => {
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => (headers[name] = value) };
    expect(await prototype.located.call(new ThingsController(), {}, reply)).toBe('rex');
    expect(headers).toEqual({ location: '/things/rex' });
  });
});
