# Build, check and run the project. GNU make.

PYTHON ?= python3
VENV ?= .venv

BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Local commands below (never a deployment) run without DEBUG, so they need a SECRET_KEY:
# the environment's, or this one (docs/deploy.md: production sets its own).
LOCAL_KEY := SECRET_KEY=$${SECRET_KEY:-local-only-key-for-make-targets}

.PHONY: install lint typecheck services test test-slow test-engine bench bench-play bench-play-site bench-site bench-fair loadtest run messages clean

# The virtualenv with the project and its test tools; redone when pyproject.toml changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e '.[test]'
	touch $@

install: $(STAMP)

lint: install
	$(BIN)/ruff check games replays mahjong_site tests tools manage.py

typecheck: install
	$(BIN)/mypy --strict games replays mahjong_site

# Start PostgreSQL and Redis where installed but stopped; never fails when they are absent.
services:
	@if command -v pg_ctlcluster >/dev/null 2>&1; then \
		if pg_isready -q -h 127.0.0.1 >/dev/null 2>&1; then \
			echo "PostgreSQL: running"; \
		else \
			echo "PostgreSQL: starting"; \
			pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start \
				|| echo "PostgreSQL: could not start (continuing)"; \
		fi; \
	else \
		echo "PostgreSQL: not installed (skipped)"; \
	fi
	@if command -v redis-server >/dev/null 2>&1; then \
		if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then \
			echo "Redis: running"; \
		else \
			echo "Redis: starting"; \
			redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
				|| echo "Redis: could not start (continuing)"; \
		fi; \
	else \
		echo "Redis: not installed (skipped)"; \
	fi

# Debian's Chromium for the browser tests (Playwright cannot download its own browsers here);
# installed only when missing, and never fails: without apt-get or root it prints a notice.
browser:
	@if command -v chromium >/dev/null 2>&1; then \
		echo "Chromium: installed"; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		echo "Chromium: installing"; \
		(apt-get update && apt-get install -y chromium) \
			|| echo "Chromium: could not install (continuing; browser tests will be skipped)"; \
	else \
		echo "Chromium: not installed and no apt-get as root (browser tests will be skipped)"; \
	fi

# Tests run against the real services: PostgreSQL (DATABASE_URL) and Redis.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/mahjong

test: install services browser lint typecheck
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/python -m pytest -n 2

# The big samples `make test` leaves out (tests marked slow; pyproject.toml): the whole bot
# corpus, 2,000 hands per variant, and the like. PLAY_LEAKS_200=1 adds 200 hands per variant
# played through the site.
test-slow: install services
	DATABASE_URL=$${DATABASE_URL:-$(TEST_DATABASE_URL)} $(BIN)/python -m pytest -n 2 -m slow

# The engine's tests alone: the test files that import nothing of Django or the site, run
# without pytest-django, so no database, Redis or browser is needed.
test-engine: install
	$(BIN)/python -m pytest -p no:django -p no:playwright -W ignore::pytest.PytestConfigWarning \
		--engine-only -n 2

bench: install
	$(BIN)/python -m games bench

# A player's action against the bots plus every bot move to their next decision (docs/play.md).
bench-play: install
	$(BIN)/python -m games bench --play

# The same through the site: a player's action at POST /play/<id>/act, bots included, with
# the row locked, restored, written back and the state as JSON (docs/play.md, "The site").
bench-play-site: install services
	$(LOCAL_KEY) $(BIN)/python manage.py migrate --noinput -v 0
	$(LOCAL_KEY) $(BIN)/python manage.py bench_play_site

# Upload-to-done time of a 16-hand bot match per variant: with CELERY_BROKER_URL set, one
# worker of its own on a private queue; without it, in-process (docs/analysis.md).
bench-site: install services
	$(LOCAL_KEY) $(BIN)/python manage.py migrate --noinput -v 0
	$(LOCAL_KEY) $(BIN)/python manage.py bench_annotation

# Fairness (issues 16 and 24, docs/analysis.md): 4-hand uploads made beside a 500-hand one,
# while it is annotated and while it is valued, one worker, values on; needs Redis
# (make services) and PostgreSQL (DATABASE_URL).
bench-fair: install services
	$(LOCAL_KEY) $(BIN)/python manage.py migrate --noinput -v 0
	$(LOCAL_KEY) CELERY_BROKER_URL=$${CELERY_BROKER_URL:-redis://127.0.0.1:6379/0} \
		$(BIN)/python manage.py bench_annotation --fair 500

# 50 clients stepping through replays on gunicorn + PostgreSQL for 60 s (see docs/site.md).
# Its gunicorns run with --no-control-socket: another gunicorn on this host keeps its own.
loadtest: install services
	$(LOCAL_KEY) $(BIN)/python tools/loadtest.py --clients 50 --seconds 60

# What uploads cost (issue 24, docs/site.md): six anonymous clients post ten 2 MB documents
# the engine refuses at their last hand to gunicorn (4 workers) and one Celery worker on
# PostgreSQL, while /healthz is probed (its p99) and honest uploads are made. Needs Redis.
.PHONY: loadtest-uploads
LOADTEST_REDIS_URL ?= redis://127.0.0.1:6379/15

loadtest-uploads: install services
	$(LOCAL_KEY) $(BIN)/python tools/loadtest_uploads.py --attackers 6 --documents 10 \
		--workers 4 --redis $(LOADTEST_REDIS_URL)

# The tables with friends under load (issue 28, docs/tables.md): TABLES rooms of four simulated
# people (a WebSocket each, answers by POST) against one ASGI process (daphne) on PostgreSQL, then
# against two sharing the Redis channel layer, each table's players split between them.
.PHONY: loadtest-tables
TABLES ?= 50
LOADTEST_SECONDS ?= 60
LOADTEST_CHANNEL_URL ?= redis://127.0.0.1:6379/14
THINK ?= 0
ANSWERS ?= http

loadtest-tables: install services
	$(LOCAL_KEY) $(BIN)/python tools/loadtest_tables.py --tables $(TABLES) --seconds $(LOADTEST_SECONDS) \
		--think $(THINK) --answers $(ANSWERS)
	$(LOCAL_KEY) $(BIN)/python tools/loadtest_tables.py --tables $(TABLES) --seconds $(LOADTEST_SECONDS) \
		--think $(THINK) --answers $(ANSWERS) --processes 2 --redis $(LOADTEST_CHANNEL_URL)

# The site on http://127.0.0.1:$(PORT) with demo matches, until Ctrl-C. Embedded SQLite unless
# DATABASE_URL is set (then PostgreSQL). `make run PORT=8080` serves on another port.
PORT ?= 8000

run: install
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py seed_demo
	@# Static files collected with hashed names, so the browser keeps them for a year instead
	@# of asking again on every page (docs/accessibility.md, "Compression"); an edited file
	@# is seen after the next `make run`.
	DEBUG=$${DEBUG:-true} STATIC_MANIFEST=true $(BIN)/python manage.py collectstatic --noinput -v 0
	@echo "Serving http://127.0.0.1:$(PORT)/ until Ctrl-C (a staff account: $(BIN)/python manage.py createsuperuser)"
	@# daphne's runserver (first in INSTALLED_APPS): the ASGI application, the tables'
	@# WebSockets included, static files from WhiteNoise (--nostatic); without CHANNEL_LAYER_URL
	@# the sockets share the process's in-memory channel layer (docs/tables.md). Each request
	@# runs on a thread of its own there: no connection is kept past it (docs/deploy.md).
	DEBUG=$${DEBUG:-true} DATABASE_CONN_MAX_AGE=$${DATABASE_CONN_MAX_AGE:-0} STATIC_MANIFEST=true \
		$(BIN)/python manage.py runserver --nostatic 127.0.0.1:$(PORT)

# Translations: re-extract every marked string into locale/<lang>/LC_MESSAGES/django.po
# (translations already there are kept), then compile the .mo files. Both are committed,
# since CI has no gettext; this target needs GNU gettext (apt-get install gettext).
MESSAGE_LOCALES ?= zh_Hans

messages: install
	$(LOCAL_KEY) $(BIN)/python manage.py makemessages $(addprefix -l ,$(MESSAGE_LOCALES)) \
		--ignore=$(VENV) --ignore=staticfiles --no-obsolete
	$(LOCAL_KEY) $(BIN)/python manage.py compilemessages $(addprefix -l ,$(MESSAGE_LOCALES)) \
		--ignore=$(VENV) --ignore=staticfiles

# Celery workers and the one beat for the whole site, with the environment's settings
# (CELERY_BROKER_URL, DATABASE_URL, …; see docs/deploy.md): `worker` analyses (the default
# queue, CELERY_QUEUE), `worker-maintenance` runs beat's periodic tasks from their own queue
# (CELERY_MAINTENANCE_QUEUE), one small process that analysis never keeps busy. Run both.
.PHONY: worker worker-maintenance beat
WORKER_CONCURRENCY ?= 2

worker: install
	$(BIN)/celery -A mahjong_site worker --concurrency $(WORKER_CONCURRENCY) \
		--prefetch-multiplier 1 -Q $${CELERY_QUEUE:-celery} -n annotate@%h -l info

worker-maintenance: install
	$(BIN)/celery -A mahjong_site worker --concurrency 1 --prefetch-multiplier 1 \
		-Q $${CELERY_MAINTENANCE_QUEUE:-maintenance} -n maintenance@%h -l info

beat: install
	$(BIN)/celery -A mahjong_site beat -l info --schedule $${BEAT_SCHEDULE_FILE:-celerybeat-schedule}

clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis test-artifacts
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
