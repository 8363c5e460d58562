import { RequestMapping, RequestMethod, type Type } from '@nestjs/common';
import { Public } from '../auth.js';
import { MethodNotAllowed } from './problem.js';

// The methods a path may be asked with that it does not take: a 405 with
// Allow, as the Go router answers them, not Nest's 404.
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

type Method = (typeof METHODS)[number];

/**
 * Allow is a controller decorator: path (under the controller's) takes
 * methods, and every other one of METHODS is answered 405 naming them
 * (HEAD with GET), with no token needed, as the Go app answers before it
 * authenticates. It adds one handler per other method to the controller.
 */
export function Allow(path: string, ...methods: Method[]): ClassDecorator {
  const allow = methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(', ');
  return (target) => {
    const prototype = (target as unknown as Type).prototype as Record<string, unknown>;
    for (const method of METHODS.filter((m) => !methods.includes(m))) {
      const name = `${method} ${path || '/'} is not allowed`;
      Object.defineProperty(prototype, name, {
        value: function notAllowed(): never {
          throw new MethodNotAllowed(method, allow);
        },
      });
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
      RequestMapping({ path, method: RequestMethod[method] })(prototype, name, descriptor);
      Public()(prototype, name, descriptor);
    }
  };
}
