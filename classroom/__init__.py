"""Learners, classes and their progress, kept in a real store (SQLite or PostgreSQL).

Pure Python (sqlite3, psycopg 3); never imports Jupyter. Modules:
- `store`: connections, transactions and versioned migrations, shared with other components;
- `identity`: a learner's name, class code and browser id, cleaned; verified learners (device
  tokens, PINs, login cards) and the teacher's reset, merge and remove;
- `progress`: the progress tables (answers and per-lesson counters), the legacy JSON import;
- `classes`: classes with a learner code and a teacher key kept only as a hash.
- `homework`: assignments (tarefas) of a class and each learner's results (migration 5);
- `mastery`: the named skills, a level per learner and skill, Leitner boxes for review.
"""
