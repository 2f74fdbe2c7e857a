"""Settings of the mahjong replay site: one file, typed environment helpers, runnable defaults.

Every value can be set from the environment (see docs/deploy.md); without any,
the site runs on an embedded SQLite database for development.
"""

from __future__ import annotations

import datetime as dt
import os
import warnings
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# The admin and form classes are generic for the type checker (ModelAdmin[Match]); this
# makes them subscriptable when the site runs too.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """A yes/no setting; unset or empty is the default, and anything but the words below is
    refused (``DEBUG=ture`` must not quietly mean "no")."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={os.environ[name]!r} is not a yes/no value: use one of "
        f"{', '.join(TRUE_WORDS)} or {', '.join(FALSE_WORDS)}")


def env_int(name: str, default: int) -> int:
    """A whole number; unset or empty is the default, anything else must be an integer."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(
            f"{name}={os.environ[name]!r} is not a whole number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# Only for DEBUG: with it, anyone can sign sessions and cookies the site accepts (issue 16).
DEVELOPMENT_SECRET_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"


def secret_key(debug: bool) -> str:
    """SECRET_KEY from the environment; without DEBUG the site refuses to start without
    one (or with the development key written above)."""
    key = env_str("SECRET_KEY", "").strip()
    if debug:
        return key or DEVELOPMENT_SECRET_KEY
    if not key or key == DEVELOPMENT_SECRET_KEY:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: with DEBUG off the site needs a long random SECRET_KEY, "
            "the same on every machine (docs/deploy.md)")
    return key


SECRET_KEY = secret_key(DEBUG)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_NAME = env_str("SITE_NAME", "Mahjong replays")

INSTALLED_APPS = [
    # daphne first: its runserver serves the ASGI application, WebSockets included.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "channels",
    "replays",
]

MIDDLEWARE = [
    # First, so that every response gets its headers (static files and early refusals too).
    "replays.security.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "replays.limits.BoundedBodyMiddleware",
    "replays.limits.UploadSlotsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and htmx fragments go out gzipped to clients that accept it (issue 32): a
    # replay step is about a fifth of its size. After WhiteNoise, which answers static
    # files itself (collected ones already compressed); before everything else that reads
    # or writes a body. BREACH: the CSRF token in a page is masked afresh per response by
    # Django, so compression never repeats it (docs/accessibility.md, "Compression").
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "mahjong_site.urls"
WSGI_APPLICATION = "mahjong_site.wsgi.application"
# The ASGI application (HTTP and the tables' WebSockets, docs/tables.md): daphne serves it.
ASGI_APPLICATION = "mahjong_site.asgi.application"
# The channel layer the tables' sockets share: Redis at CHANNEL_LAYER_URL when set (every
# ASGI process must share one in production), else each process's memory (one process,
# `make run`; replays/memory_layer.py).
CHANNEL_LAYER_URL = env_str("CHANNEL_LAYER_URL", "")
# All the sockets of one process receive through one Redis key, and the layer's capacity
# (100 messages by default) bounds that key, not a socket: a process a second or two behind
# under load (issue 28's load test: 100 sockets each) lost every group message past it,
# silently, and its tables stalled. Messages still expire after 60 s.
CHANNEL_LAYER_CAPACITY = 5000
CHANNEL_LAYERS = (
    {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                 "CONFIG": {"hosts": [CHANNEL_LAYER_URL], "capacity": CHANNEL_LAYER_CAPACITY}}}
    if CHANNEL_LAYER_URL else
    {"default": {"BACKEND": "replays.memory_layer.MemoryChannelLayer"}})

# The replays app's parts, each a subpackage with its own views, services and templates
# (replays/<part>/templates/<part>/…); models and migrations stay in the one app.
SITE_PARTS = ("library", "annotation", "puzzles", "operations", "play", "tables", "scorer",
              "recorder", "ledger")

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates",
                 *(BASE_DIR / "replays" / part / "templates" for part in SITE_PARTS)],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Fail fast when the database is unreachable (/healthz answers within seconds).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 5))
    # An ASGI server gives each request's database work a thread of its own, so a connection
    # kept past the request is never used again (Django's docs: no persistent connections
    # under ASGI; mahjong_site/asgi.py sets DATABASE_CONN_MAX_AGE=0). A pool of
    # DATABASE_POOL_SIZE connections shared by those threads saves a connection per request.
    if env_int("DATABASE_POOL_SIZE", 0) > 0:
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 1, "max_size": env_int("DATABASE_POOL_SIZE", 0),
            "timeout": env_int("DATABASE_CONNECT_TIMEOUT", 5)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # `make run`: the in-process analysis thread writes beside the requests (replays/inprocess.py)
    # and SQLite has one writer. A transaction takes the write lock when it begins, and a
    # writer waits up to 20 s for it, instead of failing with "database is locked" when a
    # read turns into a write; WAL lets pages read while the analysis writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE", "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;"})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "browse"
LOGOUT_REDIRECT_URL = "browse"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
# Daily puzzles turn at midnight here, the same instant for every player (docs/puzzles.md).
PUZZLE_TIME_ZONE = env_str("PUZZLE_TIME_ZONE", "Asia/Shanghai")
# Signs the generated daily puzzle's seed, so coming days can't be computed offline.
PUZZLE_SEED_SECRET = env_str("PUZZLE_SEED_SECRET", "") or SECRET_KEY
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # With STATIC_MANIFEST=true (after `collectstatic`, see docs/deploy.md) files get hashed
    # names and far-future caching; otherwise WhiteNoise serves them from the source folders.
    "staticfiles": {
        "BACKEND": "mahjong_site.storage.HashedStaticFilesStorage"
        if env_bool("STATIC_MANIFEST", False)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not env_bool("STATIC_MANIFEST", False)
# Collected, hashed files never change under a running server: WhiteNoise reads them once
# and sends them cached for a year ("immutable"), DEBUG or not (`make run` collects them
# too; docs/accessibility.md). Without the manifest, DEBUG looks files up per request.
if env_bool("STATIC_MANIFEST", False):
    WHITENOISE_AUTOREFRESH = False
# Without collectstatic there is no STATIC_ROOT yet; WhiteNoise then serves the sources.
warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")

# Uploads: one mahjong-log/1 document is at most this many bytes (documented in docs/upload.md).
MAX_UPLOAD_BYTES = env_int("MAX_UPLOAD_BYTES", 2 * 1024 * 1024)
MAX_UPLOAD_FILES = env_int("MAX_UPLOAD_FILES", 10)
# A request body (all files and fields together) above this is refused before it is read
# (replays/limits.py BoundedBodyMiddleware, and the proxy: docs/deploy.md).
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", MAX_UPLOAD_BYTES * MAX_UPLOAD_FILES + 65536)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES * 2
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES
DATA_UPLOAD_MAX_NUMBER_FILES = max(MAX_UPLOAD_FILES * 10, 100)  # ours is the clear refusal
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
FILE_UPLOAD_HANDLERS = ["replays.limits.BoundedUploadHandler",
                        "django.core.files.uploadhandler.MemoryFileUploadHandler",
                        "django.core.files.uploadhandler.TemporaryFileUploadHandler"]
# What one document, one account and one visitor may cost (docs/upload.md, docs/deploy.md).
MAX_MATCH_HANDS = env_int("MAX_MATCH_HANDS", 500)
MAX_HAND_EVENTS = env_int("MAX_HAND_EVENTS", 1000)
MAX_ACCOUNT_BYTES = env_int("MAX_ACCOUNT_BYTES", 50 * 1024 * 1024)
# Rate limits, "count/seconds" per visitor address or account (replays/limits.py); counted
# in RATE_LIMIT_CACHE_URL's Redis (shared by every web machine), or in each process's
# memory without it. RATE_LIMITS_ENABLED=false turns them off (the test suite does).
RATE_LIMITS_ENABLED = env_bool("RATE_LIMITS_ENABLED", True)
RATE_LIMITS = {
    "upload-visitor": env_str("RATE_UPLOADS_PER_VISITOR", "20/3600"),
    "upload-account": env_str("RATE_UPLOADS_PER_ACCOUNT", "60/3600"),
    "signup": env_str("RATE_SIGNUPS", "5/3600"),
    "puzzle-answer": env_str("RATE_PUZZLE_ANSWERS", "30/60"),
    "play-start-visitor": env_str("RATE_PLAY_STARTS_PER_VISITOR", "30/3600"),
    "play-start-account": env_str("RATE_PLAY_STARTS_PER_ACCOUNT", "60/3600"),
    # The in-game hint values a decision as the review does (about a second of CPU).
    "play-hint-visitor": env_str("RATE_PLAY_HINTS_PER_VISITOR", "120/600"),
    # The viewer's danger per tile (?danger=1): the engine reads the table at every step.
    "danger-visitor": env_str("RATE_DANGER_PER_VISITOR", "240/600"),
    # Tables with friends (issue 28, docs/tables.md): rooms created and seats taken.
    "table-create-visitor": env_str("RATE_TABLE_CREATES_PER_VISITOR", "20/3600"),
    "table-join-visitor": env_str("RATE_TABLE_JOINS_PER_VISITOR", "60/3600"),
    # Match ledgers (issue 30, docs/ledger.md): ledgers started and rows entered.
    "ledger-create-visitor": env_str("RATE_LEDGER_CREATES_PER_VISITOR", "30/3600"),
    "ledger-row-visitor": env_str("RATE_LEDGER_ROWS_PER_VISITOR", "600/3600"),
    # Hands recorded from a seat (docs/recorder.md): recordings started.
    "record-start-visitor": env_str("RATE_RECORD_STARTS_PER_VISITOR", "30/3600"),
}
# Upload budgets (issue 24, replays/limits.py): what the uploads of one visitor (address, an
# IPv6 /64) and of one account may cost per window, "amount/seconds": bytes of documents,
# hands the engine replays, and the engine's CPU seconds. Counted where the rate limits are
# (and off with them).
UPLOAD_BUDGETS = {
    "upload-bytes-visitor": env_str("BUDGET_UPLOAD_BYTES_PER_VISITOR", f"{40 * 2**20}/3600"),
    "upload-bytes-account": env_str("BUDGET_UPLOAD_BYTES_PER_ACCOUNT", f"{200 * 2**20}/3600"),
    "upload-hands-visitor": env_str("BUDGET_UPLOAD_HANDS_PER_VISITOR", "2000/3600"),
    "upload-hands-account": env_str("BUDGET_UPLOAD_HANDS_PER_ACCOUNT", "10000/3600"),
    "upload-cpu-visitor": env_str("BUDGET_UPLOAD_CPU_SECONDS_PER_VISITOR", "60/3600"),
    "upload-cpu-account": env_str("BUDGET_UPLOAD_CPU_SECONDS_PER_ACCOUNT", "300/3600"),
}
# Documents up to this many bytes (together, per request) are checked while the page waits;
# the others are kept as pending and checked by a worker task the page polls (issue 24).
UPLOAD_SYNC_BYTES = env_int("UPLOAD_SYNC_BYTES", 256 * 1024)
# Requests with a body larger than that handled at once per web machine (a bulkhead: the
# other pages always find a free worker); 0: no limit (replays/limits.py).
UPLOAD_CONCURRENCY = env_int("UPLOAD_CONCURRENCY", 2)
UPLOAD_CHECK_SOFT_TIME_LIMIT = env_int("UPLOAD_CHECK_SOFT_TIME_LIMIT", 60)
UPLOAD_CHECK_KEEP_HOURS = env_int("UPLOAD_CHECK_KEEP_HOURS", 24)
# What anonymous uploads from one address (an IPv6 /64) may keep, as MAX_ACCOUNT_BYTES does
# for an account.
MAX_ANONYMOUS_BYTES = env_int("MAX_ANONYMOUS_BYTES", 20 * 2**20)
# Play (issue 24, docs/play.md): unfinished matches one visitor may have, and how long an
# anonymous unfinished match untouched is kept before beat expires it.
PLAY_MAX_OPEN_MATCHES = env_int("PLAY_MAX_OPEN_MATCHES", 5)
PLAY_ANONYMOUS_EXPIRE_HOURS = env_int("PLAY_ANONYMOUS_EXPIRE_HOURS", 48)
# Tables with friends (issue 28, docs/tables.md): unfinished rooms one visitor may have
# created; how long a seat whose socket closed keeps its turn before the bot plays it.
TABLES_MAX_OPEN_ROOMS = env_int("TABLES_MAX_OPEN_ROOMS", 3)
TABLES_GRACE_SECONDS = env_int("TABLES_GRACE_SECONDS", 20)
# Match ledgers (issue 30, docs/ledger.md): rows one ledger keeps, ledgers one account (or a
# guest's device) keeps.
LEDGER_MAX_ROWS = env_int("LEDGER_MAX_ROWS", 200)
LEDGER_MAX_PER_OWNER = env_int("LEDGER_MAX_PER_OWNER", 30)
# Hands recorded from a seat (docs/recorder.md): unfinished recordings one account (or one
# anonymous session) may keep, and how long an anonymous one untouched is kept.
RECORD_MAX_OPEN = env_int("RECORD_MAX_OPEN", 5)
RECORD_ANONYMOUS_EXPIRE_HOURS = env_int("RECORD_ANONYMOUS_EXPIRE_HOURS", 48)
# Spectators see the table this many moves behind (they can't tell a player what happened).
TABLES_SPECTATOR_DELAY = env_int("TABLES_SPECTATOR_DELAY", 4)
RATE_LIMIT_CACHE_URL = env_str("RATE_LIMIT_CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "limits": ({"BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": RATE_LIMIT_CACHE_URL, "KEY_PREFIX": "limits"}
               if RATE_LIMIT_CACHE_URL else
               {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "limits"}),
}
# The visitor's address behind a proxy: the last address of this header (the proxy appends
# it), e.g. HTTP_X_FORWARDED_FOR; empty: REMOTE_ADDR.
CLIENT_IP_HEADER = env_str("CLIENT_IP_HEADER", "")

# Log-in lockouts (django-axes, replays/lockouts.py, docs/deploy.md): failed log-ins are
# counted per (user name, address) and per address, never per name alone, so nobody can
# lock the real owner out from elsewhere. A lockout lasts LOGIN_LOCKOUT_MINUTES after the
# last failure it counted; the attempts table holds only failures of that long ago or less.
INSTALLED_APPS.append("axes")
MIDDLEWARE.append("axes.middleware.AxesMiddleware")  # last: it turns a lockout into a page
# Truly last, a pass-through: the whole chain synchronous under daphne, one thread hop in
# instead of one per middleware and phase (replays/sync_chain.py).
MIDDLEWARE.append("replays.sync_chain.SyncChainMiddleware")
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend",
                           "django.contrib.auth.backends.ModelBackend"]
LOGIN_FAILURES_PER_NAME = env_int("LOGIN_FAILURES_PER_NAME", 10)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 30)
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", 15)
AXES_HANDLER = "replays.lockouts.PairAndAddressHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = LOGIN_FAILURES_PER_NAME
AXES_COOLOFF_TIME = dt.timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_CLIENT_IP_CALLABLE = "replays.limits.address_of"  # CLIENT_IP_HEADER, as the limits
AXES_USERNAME_CALLABLE = "replays.lockouts.login_name"
AXES_LOCKOUT_CALLABLE = "replays.lockouts.locked_out"
# A locked client's further attempts are refused unwritten (no lockout prolonged by them,
# no row growing per request); a success resets nothing (one's own account from the same
# address would clear the address's count); no row per successful log-in is kept.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = False
AXES_DISABLE_ACCESS_LOG = True

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# HTTPS (docs/deploy.md): behind a TLS proxy that sets X-Forwarded-Proto, SECURE_PROXY_HEADER
# makes Django trust it; then SECURE_SSL_REDIRECT sends http:// to https:// and HSTS tells
# browsers never to try http:// again for SECURE_HSTS_SECONDS.
SECURE_PROXY_SSL_HEADER = (("HTTP_X_FORWARDED_PROTO", "https")
                           if env_bool("SECURE_PROXY_HEADER", False) else None)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the load balancer checks over plain HTTP
# Every page's scripts and styles are files of the site: no inline script, handler or style
# (replays/security.py sends it; templates are checked by tests/test_security_headers.py).
CONTENT_SECURITY_POLICY = env_str(
    "CONTENT_SECURITY_POLICY",
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
# Browser features no page of the site uses, off for its pages and anything in them.
PERMISSIONS_POLICY = env_str(
    "PERMISSIONS_POLICY",
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=()")

# Celery (docs/deploy.md). No broker: tasks run in-process when queued; in a web process
# beside the request, in IN_PROCESS_THREADS threads with at most IN_PROCESS_QUEUE tasks
# waiting (replays/inprocess.py; 0 threads: inside the request).
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "") or "memory://localhost/"
CELERY_TASK_ALWAYS_EAGER = not os.environ.get("CELERY_BROKER_URL")
IN_PROCESS_THREADS = env_int("IN_PROCESS_THREADS", 1)
IN_PROCESS_QUEUE = env_int("IN_PROCESS_QUEUE", 100)
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_SOFT_TIME_LIMIT", 120)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TIME_LIMIT", 180)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The engine keeps the shape tables it builds (they make later hands fast) and they grow
# with the hands met; a worker process above this size is replaced after its task.
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env_int("CELERY_WORKER_MAX_MEMORY_MB", 600) * 1024  # KiB
# A killed worker's unacknowledged hands go to another worker after the visibility timeout:
# just above the hard time limit (a hand still running is never handed out twice), so within
# minutes instead of Redis's default hour or the 600 s used before (issue 16).
# (`manage.py check --deploy` warns when it is not above the time limit: replays/checks.py.)
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", CELERY_TASK_TIME_LIMIT + 30)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
                                   # an unreachable broker is an answer within seconds
                                   "socket_connect_timeout": 2, "socket_timeout": 5}
# Publishing during a broker outage gives up after about a second (the upload is stored and
# the match waits for send_waiting) instead of holding the request.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0,
                                    "interval_step": 0.2, "interval_max": 0.5}
# The queue tasks are sent to, workers' own sends included: a hand that finishes sends its
# match's next hand (fairness), so a worker on another queue must be told its name.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
# Beat's periodic tasks have a queue of their own (a worker for it: docs/deploy.md), so they
# never wait behind a backlog of analysis (issue 24): every CELERY_BEAT_SCHEDULE entry
# names it in its options.
CELERY_MAINTENANCE_QUEUE = env_str("CELERY_MAINTENANCE_QUEUE", "maintenance")
# Fair annotation: hands of one match on the broker at once (replays/annotation/tasks.py).
ANNOTATION_WINDOW = env_int("ANNOTATION_WINDOW", 4)

# Operations (docs/deploy.md): Celery beat's periodic tasks, stuck annotation jobs,
# worker heartbeats for the staff dashboard, and the health check's broker timeout.
ANNOTATION_STUCK_MINUTES = env_int("ANNOTATION_STUCK_MINUTES", 15)
WORKER_HEARTBEAT_SECONDS = env_int("WORKER_HEARTBEAT_SECONDS", 30)
HEALTHZ_TIMEOUT_SECONDS = env_int("HEALTHZ_TIMEOUT_SECONDS", 2)
DASHBOARD_MAX_DAYS = env_int("DASHBOARD_MAX_DAYS", 90)
BEAT_ROLL_PUZZLES_MINUTES = env_int("BEAT_ROLL_PUZZLES_MINUTES", 60)
BEAT_REQUEUE_STUCK_MINUTES = env_int("BEAT_REQUEUE_STUCK_MINUTES", 5)
BEAT_SEND_WAITING_SECONDS = env_int("BEAT_SEND_WAITING_SECONDS", 60)
CELERY_BEAT_SCHEDULE = {
    # Today's and tomorrow's daily puzzles exist before anyone asks (idempotent).
    "roll-daily-puzzles": {
        "task": "replays.tasks.roll_daily_puzzles",
        "schedule": 60.0 * BEAT_ROLL_PUZZLES_MINUTES,
        "options": {"queue": CELERY_MAINTENANCE_QUEUE, "expires": 60.0 * BEAT_ROLL_PUZZLES_MINUTES},
    },
    # Matches stored while the broker was down are queued once it is back.
    "send-waiting-annotations": {
        "task": "replays.tasks.send_waiting",
        "schedule": float(BEAT_SEND_WAITING_SECONDS),
        "options": {"queue": CELERY_MAINTENANCE_QUEUE, "expires": float(BEAT_SEND_WAITING_SECONDS)},
    },
    # Hands of matches waiting longer than ANNOTATION_STUCK_MINUTES go back on the queue.
    "requeue-stuck-annotations": {
        "task": "replays.tasks.requeue_stuck",
        "schedule": 60.0 * BEAT_REQUEUE_STUCK_MINUTES,
        "options": {"queue": CELERY_MAINTENANCE_QUEUE, "expires": 60.0 * BEAT_REQUEUE_STUCK_MINUTES},
    },
    # Values tasks of matches waiting longer than VALUES_STUCK_MINUTES go back on the queue.
    "requeue-stuck-values": {
        "task": "replays.tasks.requeue_stuck_values",
        "schedule": 60.0 * BEAT_REQUEUE_STUCK_MINUTES,
        "options": {"queue": CELERY_MAINTENANCE_QUEUE, "expires": 60.0 * BEAT_REQUEUE_STUCK_MINUTES},
    },
}
BEAT_EXPIRE_PLAY_MINUTES = env_int("BEAT_EXPIRE_PLAY_MINUTES", 30)
BEAT_UPLOAD_CHECKS_SECONDS = env_int("BEAT_UPLOAD_CHECKS_SECONDS", 60)
CELERY_BEAT_SCHEDULE.update({
    # Anonymous unfinished matches untouched for PLAY_ANONYMOUS_EXPIRE_HOURS are deleted.
    "expire-stale-play": {
        "task": "replays.tasks.expire_stale_matches",
        "schedule": 60.0 * BEAT_EXPIRE_PLAY_MINUTES,
        "options": {"queue": CELERY_MAINTENANCE_QUEUE, "expires": 60.0 * BEAT_EXPIRE_PLAY_MINUTES},
    },
    # Anonymous unfinished recordings untouched for RECORD_ANONYMOUS_EXPIRE_HOURS are deleted.
    "expire-stale-recordings": {
        "task": "replays.tasks.expire_stale_recordings",
        "schedule": 60.0 * BEAT_EXPIRE_PLAY_MINUTES,
        "options": {"queue": CELERY_MAINTENANCE_QUEUE, "expires": 60.0 * BEAT_EXPIRE_PLAY_MINUTES},
    },
    # Uploads kept during a broker outage are sent to be checked; old checks are deleted.
    "tend-upload-checks": {
        "task": "replays.tasks.tend_upload_checks",
        "schedule": float(BEAT_UPLOAD_CHECKS_SECONDS),
        "options": {"queue": CELERY_MAINTENANCE_QUEUE,
                    "expires": float(BEAT_UPLOAD_CHECKS_SECONDS)},
    },
})
# Tables with friends (issue 28): the deadlines of decisions nobody answered are applied
# every BEAT_TABLE_DEADLINES_SECONDS (and by any request touching the room).
BEAT_TABLE_DEADLINES_SECONDS = env_int("BEAT_TABLE_DEADLINES_SECONDS", 2)
CELERY_BEAT_SCHEDULE["apply-table-deadlines"] = {
    "task": "replays.tasks.apply_table_deadlines",
    "schedule": float(BEAT_TABLE_DEADLINES_SECONDS),
    "options": {"queue": CELERY_MAINTENANCE_QUEUE, "expires": float(BEAT_TABLE_DEADLINES_SECONDS)},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"celery.app.trace": {"level": env_str("CELERY_TRACE_LOG_LEVEL", "WARNING")}},
}

# The values pass (issue 17, docs/analysis.md): queued when a match's annotation is done,
# for the uploader's seat (no seat when it isn't known, until the owner or staff asks), at
# most VALUES_WINDOW tasks of a match on the broker at once, and only the first
# VALUES_ANONYMOUS_HANDS hands of a match without an owner unless staff asks (issue 24).
# VALUES_SOLO_SAMPLES and VALUES_TABLE_SAMPLES set the models' sample counts.
VALUES_AFTER_ANNOTATION = env_bool("VALUES_AFTER_ANNOTATION", True)
VALUES_WINDOW = env_int("VALUES_WINDOW", 2)
VALUES_ANONYMOUS_HANDS = env_int("VALUES_ANONYMOUS_HANDS", 16)
VALUES_SOLO_SAMPLES = env_int("VALUES_SOLO_SAMPLES", 100)
VALUES_TABLE_SAMPLES = env_int("VALUES_TABLE_SAMPLES", 16)
# The in-game hint (docs/play.md "The hint") values the current decision with the same
# counts, so it names the review's best choice; PLAY_HINT_MAX_PLAYOUTS bounds a table-model
# decision's choices × redeals (more choices get fewer redeals).
PLAY_HINT_SOLO_SAMPLES = env_int("PLAY_HINT_SOLO_SAMPLES", VALUES_SOLO_SAMPLES)
PLAY_HINT_TABLE_SAMPLES = env_int("PLAY_HINT_TABLE_SAMPLES", VALUES_TABLE_SAMPLES)
PLAY_HINT_MAX_PLAYOUTS = env_int("PLAY_HINT_MAX_PLAYOUTS", 160)
VALUES_SOFT_TIME_LIMIT = env_int("VALUES_SOFT_TIME_LIMIT", 300)
# A match whose values tasks were sent this long ago, with no values row written since,
# gets its missing tasks sent again by the beat (requeue_stuck_values).
VALUES_STUCK_MINUTES = env_int("VALUES_STUCK_MINUTES", 20)
