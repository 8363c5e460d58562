import { Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, UseInterceptors } from '@nestjs/common';
import { PERSON, PERSON_UPDATE, personPatch } from '@crudbench/node-base/http/bodies.js';
import { type Id, updateVersion } from '@crudbench/node-base/http/params.js';
import { Editor } from './auth.js';
import { PersonWriter, Persons } from './dependencies.js';
import { Location, VersionTag } from './http/answers.js';
import { JsonBody, type Decoded } from './http/body.js';
import { Allow } from './http/methods.js';
import { IdPipe, QueryParam } from './http/params.js';

/** PersonsController serves /api/persons: reads for every session, writes for editors. */
@Controller('api/persons')
@Allow('', 'GET', 'POST')
@Allow(':id', 'GET', 'PATCH', 'DELETE')
export class PersonsController {
  constructor(
    private readonly persons: Persons,
    private readonly writer: PersonWriter,
  ) {}

  @Get()
  find(@QueryParam('q') search?: string, @QueryParam('after') after?: string, @QueryParam('limit') limit?: string) {
    return this.persons.find({ search, after, limit });
  }

  @Post()
  @Editor()
  @Location('/api/persons')
  @UseInterceptors(VersionTag)
  create(@JsonBody(PERSON) body: Decoded<typeof PERSON>) {
    return this.writer.create(body);
  }

  @Get(':id')
  @UseInterceptors(VersionTag)
  findOne(@Param('id', IdPipe) id: Id) {
    return this.persons.findDetail(id);
  }

  @Patch(':id')
  @Editor()
  @UseInterceptors(VersionTag)
  update(@Param('id', IdPipe) id: Id, @JsonBody(PERSON_UPDATE) body: Decoded<typeof PERSON_UPDATE>, @Headers('if-match') ifMatch?: string) {
    const patch = personPatch(body);
    return this.writer.update(id, updateVersion(ifMatch, body.version), patch);
  }

  @Delete(':id')
  @Editor()
  @HttpCode(204)
  async remove(@Param('id', IdPipe) id: Id): Promise<void> {
    await this.writer.delete(id);
  }
}
