-- A small shop: customers, products, orders and their items (written for gemgo).
CREATE TABLE customers (
  id integer PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  city text NOT NULL
);
CREATE TABLE products (
  id integer PRIMARY KEY,
  name text NOT NULL,
  category text NOT NULL,
  price numeric(10,2) NOT NULL,
  stock integer NOT NULL
);
CREATE TABLE orders (
  id integer PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers(id),
  ordered_on date NOT NULL,
  status text NOT NULL
);
CREATE TABLE order_items (
  order_id integer NOT NULL REFERENCES orders(id),
  product_id integer NOT NULL REFERENCES products(id),
  quantity integer NOT NULL,
  PRIMARY KEY (order_id, product_id)
);
INSERT INTO customers VALUES
  (1, 'Ada Brandt', 'ada@example.org', 'Lyon'),
  (2, 'Bruno Costa', 'Bruno.Costa@Example.org', 'Porto'),
  (3, 'Chen Wei', 'chen@example.org', 'Lyon'),
  (4, 'Dora Ilic', 'DORA@example.org', 'Zagreb'),
  (5, 'Emeka Obi', 'emeka@example.org', 'Porto'),
  (6, 'Fatima Zahra', 'fatima@example.org', 'Lyon');
INSERT INTO products VALUES
  (1, 'Notebook', 'stationery', 3.50, 120),
  (2, 'Fountain pen', 'stationery', 24.00, 8),
  (3, 'Desk lamp', 'home', 39.90, 15),
  (4, 'Novel: The Tide', 'book', 12.00, 5),
  (5, 'Atlas of Rivers', 'book', 30.00, 2),
  (6, 'Mug', 'home', 7.25, 60),
  (7, 'Ink bottle', 'stationery', 6.00, 9);
INSERT INTO orders VALUES
  (101, 1, '2024-01-05', 'shipped'),
  (102, 2, '2024-01-17', 'shipped'),
  (103, 3, '2024-02-02', 'cancelled'),
  (104, 1, '2024-02-11', 'shipped'),
  (105, 4, '2024-02-28', 'shipped'),
  (106, 5, '2024-03-03', 'cancelled'),
  (107, 2, '2024-03-09', 'shipped'),
  (108, 6, '2024-03-21', 'pending'),
  (109, 3, '2024-03-30', 'shipped');
INSERT INTO order_items VALUES
  (101, 1, 4), (101, 2, 1),
  (102, 3, 2), (102, 6, 4),
  (103, 5, 1),
  (104, 4, 2), (104, 7, 3),
  (105, 5, 2), (105, 1, 10),
  (106, 2, 2),
  (107, 2, 3), (107, 4, 1),
  (108, 6, 2),
  (109, 3, 1), (109, 1, 2);
