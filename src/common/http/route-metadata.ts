import { ExecutionContext, Global, Injectable, Module, Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

/**
 * Route metadata as the guards and interceptors read it on every request: the handler's value,
 * else its controller's. Decorators are fixed once the application is built, so each answer is
 * looked up once per controller and handler, then kept.
 */
@Injectable()
export class RouteMetadata {
  private readonly byController = new WeakMap<Type, WeakMap<object, Map<string, unknown>>>();

  constructor(private readonly reflector: Reflector) {}

  get<T>(key: string, context: ExecutionContext): T | undefined {
    const controller = context.getClass();
    const handler = context.getHandler();
    let handlers = this.byController.get(controller);
    if (!handlers) {
      handlers = new WeakMap();
      this.byController.set(controller, handlers);
    }
    let values = handlers.get(handler);
    if (!values) {
      values = new Map();
      handlers.set(handler, values);
    }
    if (values.has(key)) {
      return values.get(key) as T | undefined;
    }
    const value = this.reflector.getAllAndOverride<T | undefined>(key, [handler, controller]);
    values.set(key, value);
    return value;
  }
}

@Global()
@Module({ providers: [RouteMetadata], exports: [RouteMetadata] })
export class RouteMetadataModule {}
