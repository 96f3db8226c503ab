"""The demo site of ``manage.py demo`` (and ``make run``): two rating lists.

- **South African Go Clubs** (slug ``sagc``, SAGC primary, EGF compared), one
  list shared by four clubs (the SAGC FAQ, first section): Stellenbosch, Cape
  Town, Johannesburg and Pretoria.  Every player has a home club and plays
  its weekly club night; now and then a player visits another club's night
  (mostly the neighbouring town's), and the game is entered there, by that
  club's volunteer, on the one record sheet the player has.  Once a year a
  tournament weekend (the South African Open, Saturday and Sunday, one sheet)
  brings players of all four clubs together; a monthly internet league pairs
  players of any club.
- **Guildford Ladder** (slug ``guildford``, West Surrey ladder), one club and
  a dozen players, independent: its players never meet the SAGC ones.

Two years of games up to today, from one seeded random generator (the same
seed gives the same site, relative to today's date).  ``people`` makes the
players, ``sheets`` plans the record sheets and their games, ``history``
plans the whole demo without a database (the "How ratings work" pages
replay it through the engine), ``store`` writes the plan with its log-file,
and ``site`` ties it together with the demo users, one per role and place.

May import: accounts.models, ratings.engine, ratings.models,
ratings.services.
"""
