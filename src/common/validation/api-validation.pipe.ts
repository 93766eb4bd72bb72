import {
  ArgumentMetadata,
  Injectable,
  PipeTransform,
  ValidationError,
  ValidationPipe,
  ValidationPipeOptions,
} from '@nestjs/common';
import { Errors } from '../http/api-error';
import { prototypeKeyPaths } from './prototype-keys';
import { validationMessages } from './validation-messages';

const common: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors: ValidationError[]) => Errors.validation(validationMessages(errors)),
};

/**
 * Bodies and query DTOs are strict: unknown fields and parameters are refused, as the contract
 * says (routes without a query DTO: see UnknownQueryInterceptor).
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  private readonly strict = new ValidationPipe({ ...common, forbidNonWhitelisted: true });

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body') {
      const expectsObject = typeof metadata.metatype === 'function' && metadata.metatype !== Object;
      if (
        expectsObject &&
        value !== undefined &&
        (typeof value !== 'object' || Array.isArray(value) || value === null)
      ) {
        throw Errors.validation(['body: must be a JSON object']);
      }
      const prototypeKeys = prototypeKeyPaths(value);
      if (prototypeKeys.length > 0) {
        throw Errors.validation(prototypeKeys.map((path) => `${path}: is not allowed`));
      }
      return this.strict.transform(value ?? {}, metadata);
    }
    if (metadata.type === 'query') {
      return this.strict.transform(value, metadata);
    }
    return value;
  }
}
