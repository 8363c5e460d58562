import { Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { badRequest } from '@crudbench/node-base/errors.js';
import { type Id, updateVersion } from '@crudbench/node-base/http/params.js';
import { Editor } from './auth.js';
import { Vacancies } from './dependencies.js';
import { Location, VersionTag } from './http/answers.js';
import { JsonBody, type Decoded, type Shape } from './http/body.js';
import { Allow } from './http/methods.js';
import { IdPipe, QueryParam } from './http/params.js';

/** VACANCY is a vacancy's body, as a create takes it. */
const VACANCY = {
  title: 'string',
  department: 'string',
  location: 'string',
  employmentType: 'string',
  salaryMinCents: 'int64',
  salaryMaxCents: 'int64',
  status: 'string',
  opensOn: 'date',
  closesOn: 'date',
  description: 'string',
  filledBy: 'int64',
} as const satisfies Shape;

/** VACANCY_UPDATE is an update's body: the version it is based on, and the members to change. */
const VACANCY_UPDATE = { version: 'int32', ...VACANCY } as const satisfies Shape;

/** CLEARABLE are the members an update may set to null. */
const CLEARABLE: readonly string[] = ['closesOn', 'filledBy'];

/** patchOf returns the members to change; null clears only what may be empty. */
function patchOf(body: Decoded<typeof VACANCY_UPDATE>): Record<string, unknown> {
  const cannotClear = body.nulls.filter((k) => !CLEARABLE.includes(k) && k !== 'version');
  if (cannotClear.length > 0) {
    throw badRequest('a field that cannot be cleared is null', Object.fromEntries(cannotClear.map((k) => [k, 'must not be null'])));
  }
  const { version: _version, ...patch }: Record<string, unknown> = body;
  for (const k of CLEARABLE) if (body.nulls.includes(k as keyof typeof VACANCY_UPDATE & string)) patch[k] = null;
  return patch;
}

/** VacanciesController serves /api/vacancies: reads for every session, writes for editors. */
@Controller('api/vacancies')
@Allow('', 'GET', 'POST')
@Allow(':id', 'GET', 'PATCH', 'DELETE')
export class VacanciesController {
  constructor(private readonly vacancies: Vacancies) {}

  @Get()
  find(@QueryParam('status') status?: string, @QueryParam('after') after?: string, @QueryParam('limit') limit?: string) {
    return this.vacancies.find({ status, after, limit });
  }

  @Post()
  @Editor()
  @Location('/api/vacancies')
  @UseInterceptors(VersionTag)
  create(@JsonBody(VACANCY) body: Decoded<typeof VACANCY>) {
    return this.vacancies.create(body);
  }

  @Get(':id')
  @UseInterceptors(VersionTag)
  findOne(@Param('id', IdPipe) id: Id) {
    return this.vacancies.findById(id);
  }

  @Patch(':id')
  @Editor()
  @UseInterceptors(VersionTag)
  update(
    @Param('id', IdPipe) id: Id,
    @JsonBody(VACANCY_UPDATE) body: Decoded<typeof VACANCY_UPDATE>,
    @Headers('if-match') ifMatch?: string,
  ) {
    const patch = patchOf(body);
    return this.vacancies.update(id, updateVersion(ifMatch, body.version), patch);
  }

  @Delete(':id')
  @Editor()
  @HttpCode(204)
  async remove(@Param('id', IdPipe) id: Id): Promise<void> {
    await this.vacancies.delete(id);
  }
}
