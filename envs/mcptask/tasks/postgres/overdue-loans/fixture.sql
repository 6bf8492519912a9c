-- A small lending library: books, members and loans (written for gemgo).
CREATE TABLE books (
  id integer PRIMARY KEY,
  title text NOT NULL,
  author text NOT NULL,
  isbn text NOT NULL
);
CREATE TABLE members (
  id serial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL UNIQUE,
  joined_on date NOT NULL
);
CREATE TABLE loans (
  id serial PRIMARY KEY,
  book_id integer NOT NULL REFERENCES books(id),
  member_id integer NOT NULL REFERENCES members(id),
  loaned_on date NOT NULL,
  due_on date NOT NULL,
  returned_on date,
  status text NOT NULL DEFAULT 'open'
);
INSERT INTO books VALUES
  (1, 'Dune', 'Frank Herbert', '978-0-441-17271-9'),
  (2, 'Kindred', 'Octavia E. Butler', '978-0-8070-8369-7'),
  (3, 'The Dispossessed', 'Ursula K. Le Guin', '978-0-06-051275-3'),
  (4, 'Solaris', 'Stanislaw Lem', '978-0-15-602760-1'),
  (5, 'Piranesi', 'Susanna Clarke', '978-1-63557-563-7');
INSERT INTO members (name, email, joined_on) VALUES
  ('Ines Moreau', 'ines@example.org', '2023-09-01'),
  ('Jakob Lund', 'jakob@example.org', '2023-11-12'),
  ('Kemi Ade', 'kemi@example.org', '2024-01-20'),
  ('Luca Neri', 'luca@example.org', '2024-02-03');
INSERT INTO loans (book_id, member_id, loaned_on, due_on, returned_on, status) VALUES
  (1, 1, '2024-03-01', '2024-03-15', '2024-03-14', 'returned'),
  (2, 1, '2024-04-02', '2024-04-16', NULL, 'open'),
  (1, 2, '2024-04-05', '2024-04-19', '2024-04-18', 'returned'),
  (3, 3, '2024-05-10', '2024-05-24', NULL, 'open'),
  (1, 3, '2024-05-20', '2024-06-03', NULL, 'open'),
  (4, 4, '2024-05-25', '2024-06-08', NULL, 'open'),
  (5, 2, '2024-02-01', '2024-02-15', '2024-02-10', 'returned'),
  (3, 4, '2024-03-03', '2024-03-17', '2024-03-20', 'returned'),
  (5, 4, '2024-04-20', '2024-05-04', '2024-05-02', 'returned');
