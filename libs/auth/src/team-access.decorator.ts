import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '@app/common';
import type { AccessFlag } from '@app/database';

export const TEAM_ACCESS = 'linkdock:team-access';
export const TEAM_HEADER = 'X-Team-Id';

/**
 * Declares that a handler may run in team context (`X-Team-Id`) and which access flag of the
 * membership it needs: GET → read, create → create, update → update, DELETE → delete. A handler
 * without it refuses team context (403): team and membership management are never delegated.
 */
export function TeamAccess(flag: AccessFlag): MethodDecorator {
  return applyDecorators(
    SetMetadata(TEAM_ACCESS, flag),
    ApiHeader({
      name: TEAM_HEADER,
      required: false,
      schema: { type: 'integer' },
      description: `Act in the workspace of this team's owner; the accepted membership needs the \`${flag}\` access flag.`,
    }),
    // A team the caller is not an accepted member of is a 404, like any resource not theirs.
    ApiErrors(403, 404),
  );
}
