import { ExecutionContext, SetMetadata, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DECORATORS } from '@nestjs/swagger';

export const ANY_QUERY = 'console:any-query';

/** Query strings are not checked on this route: it is outside the API, or answers any path. */
export const AnyQuery = () => SetMetadata(ANY_QUERY, true);

/** What a route accepts in its query string, read from its decorators. */
export type QueryParameters =
  | { kind: 'any' }
  /** A `@Query()` DTO: the validation pipe refuses the parameters it does not declare. */
  | { kind: 'dto' }
  | { kind: 'named'; names: ReadonlySet<string> };

interface RouteArgument {
  index: number;
  data?: unknown;
}

interface DocumentedParameter {
  name?: unknown;
  in?: unknown;
}

type Handler = ReturnType<ExecutionContext['getHandler']>;

const QUERY_ARGUMENT = `${RouteParamtypes.QUERY}:`;

function queryArguments(controller: Type, handler: string): RouteArgument[] {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<
    string,
    RouteArgument
  >;
  return Object.entries(args)
    .filter(([key]) => key.startsWith(QUERY_ARGUMENT))
    .map(([, argument]) => argument);
}

/** `@ApiQuery` names: parameters a guard or the handler reads from the request itself. */
function documentedQueryNames(controller: Type, handler: Handler): string[] {
  const documented = [
    ...((Reflect.getMetadata(DECORATORS.API_PARAMETERS, handler) ?? []) as DocumentedParameter[]),
    ...((Reflect.getMetadata(DECORATORS.API_PARAMETERS, controller) ??
      []) as DocumentedParameter[]),
  ];
  return documented
    .filter((parameter) => parameter.in === 'query' && typeof parameter.name === 'string')
    .map((parameter) => parameter.name as string);
}

/**
 * The route's query parameters: any (marked `@AnyQuery()`), those of its `@Query()` DTO, or the
 * names of its `@Query('x')` arguments and `@ApiQuery` documentation (none if it has neither).
 */
export function queryParametersOf(
  controller: Type,
  handler: Handler,
  anyQuery: boolean,
): QueryParameters {
  if (anyQuery) {
    return { kind: 'any' };
  }
  const args = queryArguments(controller, handler.name);
  if (args.some((argument) => argument.data === undefined)) {
    return { kind: 'dto' };
  }
  const names = new Set([
    ...args.map((argument) => String(argument.data)),
    ...documentedQueryNames(controller, handler),
  ]);
  return { kind: 'named', names };
}
