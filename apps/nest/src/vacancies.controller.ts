import { Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { VACANCY, VACANCY_UPDATE, vacancyPatch } from '@crudbench/node-base/http/bodies.js';
import { type Id, updateVersion } from '@crudbench/node-base/http/params.js';
import { Editor } from './auth.js';
import { Vacancies } from './dependencies.js';
import { Location, VersionTag } from './http/answers.js';
import { JsonBody, type Decoded } from './http/body.js';
import { Allow } from './http/methods.js';
import { IdPipe, QueryParam } from './http/params.js';

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
    const patch = vacancyPatch(body);
    return this.vacancies.update(id, updateVersion(ifMatch, body.version), patch);
  }

  @Delete(':id')
  @Editor()
  @HttpCode(204)
  async remove(@Param('id', IdPipe) id: Id): Promise<void> {
    await this.vacancies.delete(id);
  }
}
