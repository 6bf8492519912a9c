-- A small company: departments and employees (written for gemgo).
CREATE TABLE departments (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE
);
CREATE TABLE employees (
  id integer PRIMARY KEY,
  name text NOT NULL,
  department_id integer NOT NULL REFERENCES departments(id),
  salary numeric(10,2) NOT NULL,
  hired_on date NOT NULL
);
INSERT INTO departments VALUES (1, 'Engineering'), (2, 'Sales'), (3, 'Support');
INSERT INTO employees VALUES
  (1, 'Mina Park', 1, 5200.00, '2021-03-01'),
  (2, 'Omar Said', 1, 6100.00, '2019-07-15'),
  (3, 'Pia Berg', 2, 4300.00, '2022-01-10'),
  (4, 'Quentin Roy', 2, 4750.50, '2020-05-04'),
  (5, 'Rosa Diaz', 3, 3900.00, '2023-02-20'),
  (6, 'Sven Holm', 1, 4800.00, '2023-09-01'),
  (7, 'Tara Nair', 3, 4100.00, '2018-11-30');
