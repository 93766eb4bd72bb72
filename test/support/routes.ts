import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { IS_PUBLIC } from '@/common/http/public.decorator';
import { REQUIRED_SCOPES } from '@/modules/auth/require-scopes.decorator';
import { API, TestApp } from '../factories/test-app';

export interface Route {
  method: string;
  path: string;
  isPublic: boolean;
  scopes: string[] | undefined;
  handler: string;
}

/** Served outside the console prefix: the probes and the web chat's public surface. */
const outsidePrefix = (path: string) =>
  /^\/(healthz|readyz|widget\.js)$|^\/api\/v1\/(widget|channels)\//.test(path);

function joinPath(...parts: Array<string | undefined>): string {
  const joined = parts
    .filter((part): part is string => Boolean(part) && part !== '/')
    .map((part) => part.replace(/^\/|\/$/g, ''))
    .join('/');
  return `/${joined}`;
}

/** Every route the application serves, read from the controllers' own metadata. */
export function routesOf(t: TestApp): Route[] {
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  const routes: Route[] = [];
  const controllers = [...t.app.get(ModulesContainer).values()].flatMap((module) => [
    ...module.controllers.values(),
  ]);
  for (const wrapper of controllers) {
    const controller = wrapper.metatype as new (...args: unknown[]) => unknown;
    const prototype = controller.prototype as Record<string, (...args: unknown[]) => unknown>;
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || method === undefined) {
        continue;
      }
      const local = joinPath(base, path);
      routes.push({
        method: RequestMethod[method].toLowerCase(),
        path: outsidePrefix(local) ? local : joinPath(API, local),
        isPublic: Boolean(reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller])),
        scopes: reflector.getAllAndOverride<string[]>(REQUIRED_SCOPES, [handler, controller]),
        handler: `${controller.name}.${name}`,
      });
    }
  }
  return routes;
}
