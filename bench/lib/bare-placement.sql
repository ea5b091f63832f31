-- The orders benchmark's baseline schema (bare-placement.mjs): the least a placement writes.
create table customers (id uuid primary key default gen_random_uuid());
create table products (id uuid primary key default gen_random_uuid(), name text not null,
                       part_number text not null, price_cents int not null,
                       available_quantity int not null check (available_quantity >= 0));
create table orders (id uuid primary key default gen_random_uuid(),
                     user_id uuid not null references customers, total_cents int not null,
                     phone text not null, address text not null,
                     status text not null default 'unpaid',
                     created_at timestamptz not null default now(),
                     hold_expires_at timestamptz not null);
create index on orders (user_id, status);
create table order_items (order_id uuid not null references orders, line int not null,
                          product_id uuid not null references products, product_name text not null,
                          unit_price_cents int not null, qty int not null,
                          primary key (order_id, line));
create index on order_items (product_id);
create table outbox (id bigserial primary key, kind text not null, payload jsonb not null,
                     created_at timestamptz not null default now());

-- Lock the customer, refuse a second unpaid order of the same product, take the stock, write.
create function bare_place(c uuid, p uuid, q int, phone text, address text) returns json
language plpgsql as $$
declare
  price int;
  product_name text;
  order_id uuid;
begin
  perform 1 from customers where id = c for update;
  if exists (select 1 from order_items i join orders o on o.id = i.order_id
              where o.user_id = c and o.status = 'unpaid' and i.product_id = p) then
    return json_build_object('error', 'already ordered');
  end if;
  update products set available_quantity = available_quantity - q
   where id = p and available_quantity >= q
  returning price_cents, name into price, product_name;
  if not found then
    return json_build_object('error', 'out of stock');
  end if;
  insert into orders (user_id, total_cents, phone, address, hold_expires_at)
  values (c, price * q, phone, address, now() + interval '48 hours')
  returning id into order_id;
  insert into order_items values (order_id, 1, p, product_name, price, q);
  insert into outbox (kind, payload)
  values ('order-placed', json_build_object('orderId', order_id, 'customerId', c));
  return json_build_object('id', order_id, 'totalCents', price * q, 'productName', product_name);
end $$;
