import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsString, MaxLength, ValidateBy, ValidationArguments } from 'class-validator';
import { isHttpUrl, normalizeHttpUrl, NoUrlCredentials } from '@app/common';
import { hostProblem, normaliseHost } from '../host';

export const DOMAIN_SCHEMES = ['https://', 'http://'] as const;
export type DomainScheme = (typeof DOMAIN_SCHEMES)[number];
export const MAX_URL_LENGTH = 2048;

type Decorator = PropertyDecorator;

/** Normalises a pasted host (see normaliseHost) and validates it as a custom-domain host name. */
export function IsDomainHost(): Decorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? normaliseHost(value) : value,
    ),
    ValidateBy({
      name: 'isDomainHost',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && hostProblem(value) === null,
        defaultMessage: ({ property, value }: ValidationArguments) =>
          typeof value === 'string'
            ? `${property} ${hostProblem(value) ?? 'is invalid'}`
            : `${property} must be a domain name such as links.example.com`,
      },
    }),
  );
}

/** `https://` or `http://`; `https` and `http` alone are accepted too. */
export function IsDomainScheme(): Decorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') {
        return value;
      }
      const scheme = value.trim().toLowerCase();
      return /^https?$/.test(scheme) ? `${scheme}://` : scheme;
    }),
    IsIn([...DOMAIN_SCHEMES], {
      message: ({ property }: ValidationArguments) => `${property} must be https:// or http://`,
    }),
  );
}

/** An empty string (unset) or an absolute http(s) URL with a host, stored as its `URL.href`. */
export function IsOptionalHttpUrl(): Decorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (normalizeHttpUrl(value) ?? value.trim()) : value,
    ),
    NoUrlCredentials(),
    ValidateBy({
      name: 'isOptionalHttpUrl',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isEmptyOrHttpUrl(value),
        defaultMessage: ({ property }: ValidationArguments) =>
          `${property} must be empty or an absolute http:// or https:// URL`,
      },
    }),
    MaxLength(MAX_URL_LENGTH),
    IsString(),
  );
}

function isEmptyOrHttpUrl(value: string): boolean {
  return value === '' || isHttpUrl(value);
}
