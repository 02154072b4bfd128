// REST conformance, embedding targets as PostgREST resolves them: constraint and column names, self-references, PGRST201 order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRestFixture, type RestFixture } from './test-fixtures.js';

const TABLES = `
create table public.collections (
  id int primary key, name text not null, parent_id int references public.collections(id)
);
insert into public.collections values (1, 'root', null), (2, 'a', 1), (3, 'b', 1), (4, 'a1', 2);
create table public.best_friends (
  id int primary key,
  first_user int not null constraint best_friends_first_user_fkey references public.authors(id),
  second_user int not null constraint best_friends_second_user_fkey references public.authors(id)
);
insert into public.best_friends values (1, 1, 2);
create table public.departments (id int primary key, head_id int);
create table public.agents (id int primary key, department_id int references public.departments(id));
alter table public.departments add constraint departments_head_id_fkey
  foreign key (head_id) references public.agents(id);
grant select on public.collections, public.best_friends, public.departments, public.agents to anon;
create function public.first_book_of(public.authors) returns setof public.books
  language sql stable rows 1 as 'select * from public.books where author_id = $1.id order by id limit 1';
create function public.latest_book(public.authors) returns public.books
  language sql stable as 'select * from public.books where author_id = $1.id order by id desc limit 1';
grant execute on function public.first_book_of(public.authors), public.latest_book(public.authors) to anon;
`;

let f: RestFixture;
beforeAll(async () => {
  f = await startRestFixture(TABLES);
}, 180_000);
afterAll(() => f?.emu.stop());

const get = async (path: string) => {
  const res = await f.rest(path);
  return [res.status, await res.json()];
};

describe('embedding by foreign key constraint or column name', () => {
  it('embeds through a constraint named as the target', async () => {
    expect(
      await get('/best_friends?select=first_friend_of:best_friends_first_user_fkey(name)'),
    ).toEqual([200, [{ first_friend_of: { name: 'Ada' } }]]);
  });

  it('embeds through a foreign key column named as the target', async () => {
    expect(await get('/best_friends?select=second_user(name)')).toEqual([
      200,
      [{ second_user: { name: 'Basho' } }],
    ]);
    expect(await get('/books?select=title,author_id(name)&id=eq.1')).toEqual([
      200,
      [{ title: 'Notes', author_id: { name: 'Ada' } }],
    ]);
  });
});

describe('self-referencing tables', () => {
  it("reads the table's own name as its children, its column as its parent", async () => {
    expect(
      await get('/collections?select=id,collections(id)&collections.order=id&id=eq.1'),
    ).toEqual([200, [{ id: 1, collections: [{ id: 2 }, { id: 3 }] }]]);
    expect(await get('/collections?select=id,parent_id(id,name)&id=in.(1,2)&order=id')).toEqual([
      200,
      [
        { id: 1, parent_id: null },
        { id: 2, parent_id: { id: 1, name: 'root' } },
      ],
    ]);
  });

  it('disambiguates the children with the column hint', async () => {
    expect(await get('/collections?select=id,children:collections!parent_id(id)&id=eq.2')).toEqual([
      200,
      [{ id: 2, children: [{ id: 4 }] }],
    ]);
  });
});

describe('PGRST201', () => {
  it("lists the candidates in PostgREST's order: one-to-many before many-to-one", async () => {
    const [status, body] = await get('/agents?select=*,departments(*)');
    expect(status).toBe(300);
    expect(body).toEqual({
      code: 'PGRST201',
      message:
        "Could not embed because more than one relationship was found for 'agents' and 'departments'",
      details: [
        {
          cardinality: 'one-to-many',
          embedding: 'agents with departments',
          relationship: 'departments_head_id_fkey using agents(id) and departments(head_id)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 'agents with departments',
          relationship: 'agents_department_id_fkey using agents(department_id) and departments(id)',
        },
      ],
      hint: "Try changing 'departments' to one of the following: 'departments!departments_head_id_fkey', 'departments!agents_department_id_fkey'. Find the desired relationship in the 'details' key.",
    });
  });

  it('orders candidates of one cardinality by constraint name', async () => {
    const [status, body] = await get('/authors?select=messages(id)');
    expect(status).toBe(300);
    expect(body.details.map((d: { relationship: string }) => d.relationship)).toEqual([
      'messages_receiver_fkey using authors(id) and messages(receiver_id)',
      'messages_sender_fkey using authors(id) and messages(sender_id)',
    ]);
  });
});

describe('spreading a to-many embed (PostgREST 13+)', () => {
  it("gives each column as an array of the related rows' values, in the embed's order", async () => {
    expect(
      await get(
        '/authors?select=name,...books(title,pages)&books.order=id.desc&id=in.(3,4)&order=id',
      ),
    ).toEqual([
      200,
      [
        { name: 'Colette', title: ['Sido', 'Cheri'], pages: [150, 200] },
        { name: 'Nobody', title: [], pages: [] },
      ],
    ]);
  });

  it('keeps a null value as a null element, and nests to-one spreads inside', async () => {
    const { data, error } = await f.anon
      .from('countries')
      .select('name, ...authors(author:name, ...profiles(bio))')
      .eq('id', 1)
      .order('id', { referencedTable: 'authors' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'France', author: ['Ada', 'Colette'], bio: ['First programmer', null] },
    ]);
  });
});

describe('error messages', () => {
  it("name tables, never the emulator's internal aliases", async () => {
    for (const path of [
      '/books?select=id,nope',
      '/authors?select=name,books(nope)',
      '/books?select=id&nope=eq.1',
      '/authors?select=name,books(title)&books.nope=eq.1',
    ]) {
      const [status, body] = await get(path);
      expect([path, status, body.code]).toEqual([path, 400, '42703']);
      expect(body.message).toBe('column books.nope does not exist');
      expect(JSON.stringify(body)).not.toMatch(/pgrst_/);
    }
  });
});

describe('computed relationships returning one row', () => {
  it('embed as an object, for a row type and for setof … rows 1 (null when none)', async () => {
    expect(
      await get(
        '/authors?select=name,first_book_of(title),latest_book(title)&id=in.(3,4)&order=id',
      ),
    ).toEqual([
      200,
      [
        { name: 'Colette', first_book_of: { title: 'Cheri' }, latest_book: { title: 'Sido' } },
        // A non-SETOF function finding nothing still yields one row of nulls in FROM (Postgres),
        // in PostgREST's lateral join as here; `setof … rows 1` finding nothing is null.
        { name: 'Nobody', first_book_of: null, latest_book: { title: null } },
      ],
    ]);
  });
});
