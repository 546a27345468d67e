import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError, HandlerMemo, NotFoundError } from '@app/common';
import { type AccessFlag, accessOf, type TeamContext, TeamMembersRepository } from '@app/database';
import { Actor } from './actor';
import { AuthCache } from './auth-cache';
import { IS_PUBLIC } from './public.decorator';
import { TEAM_ACCESS, TEAM_HEADER } from './team-access.decorator';

const MAX_ID = 2147483647;
const TEAM_HEADER_NAME = TEAM_HEADER.toLowerCase();

/**
 * The third global guard, after the API key guard: resolves `X-Team-Id` into the workspace the
 * request acts in. Without the header nothing changes. With it, the handler must be declared with
 * @TeamAccess(flag), the caller must be an accepted member of the team (or its owner), and the
 * membership must grant the flag; then `actor.ownerId` becomes the team owner's id.
 */
@Injectable()
export class TeamAccessGuard implements CanActivate {
  private readonly routes: HandlerMemo<{ isPublic: boolean; flag: AccessFlag | undefined }>;

  constructor(
    reflector: Reflector,
    private readonly members: TeamMembersRepository,
    private readonly cache: AuthCache,
  ) {
    this.routes = new HandlerMemo((targets) => ({
      isPublic: reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true,
      flag: reflector.getAllAndOverride<AccessFlag | undefined>(TEAM_ACCESS, targets),
    }));
  }

  /** Without the header (nearly every request) the answer is known at once: no promise. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (context.getType() !== 'http') {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request & { user?: Actor }>();
    const header = req.headers[TEAM_HEADER_NAME];
    const actor = req.user;
    if (header === undefined || !actor) {
      return true;
    }
    return this.actAsTeam(context, req, header, actor);
  }

  private async actAsTeam(
    context: ExecutionContext,
    req: Request & { user?: Actor },
    header: string | string[],
    actor: Actor,
  ): Promise<boolean> {
    const { isPublic, flag } = this.routes.of(context);
    if (isPublic) {
      return true;
    }
    if (!flag) {
      throw new AppError(
        'forbidden',
        `This operation cannot be done through a team: send it without the ${TEAM_HEADER} header.`,
      );
    }
    const teamId = parseTeamId(header);
    const found = await this.findContext(teamId, actor.userId);
    if (!found) {
      throw new NotFoundError('team_not_found', 'team');
    }
    if (found.member && !accessOf(found.member)[flag]) {
      throw new AppError(
        'forbidden',
        `Your membership of this team does not grant the ${flag} access this operation needs.`,
      );
    }
    req.user = { ...actor, ownerId: found.team.user_id, teamId };
    return true;
  }

  /** Through the AuthCache: team and membership changes drop what it holds. */
  private async findContext(teamId: number, userId: number): Promise<TeamContext | null> {
    const now = Date.now();
    const cached = this.cache.getContext(teamId, userId, now);
    if (cached !== undefined) {
      return cached;
    }
    const generation = this.cache.generation();
    const found = await this.members.findContext(teamId, userId);
    this.cache.putContext(teamId, userId, found, now, generation);
    return found;
  }
}

function parseTeamId(header: string | string[]): number {
  const value = Array.isArray(header) ? header.join(',') : header.trim();
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > MAX_ID) {
    throw new AppError(
      'validation_failed',
      `The ${TEAM_HEADER} header must be the id of a team (a positive whole number).`,
      TEAM_HEADER,
    );
  }
  return Number(value);
}
