# The Hearts web game: installs the app, applies the migrations, serves it with uvicorn.
#   docker build -t hearts . && docker run -p 8000:8000 -v hearts-data:/data hearts
# SQLite in /data by default; pass -e DATABASE_URL=postgresql+psycopg://… for PostgreSQL.
# scripts/serve runs uvicorn with the server limits; every limit is an environment variable
# (README, "Production settings"), e.g. -e HEARTS_SECURE_COOKIES=1 behind HTTPS.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_URL=sqlite:////data/hearts.db \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /srv/hearts
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY scripts/serve ./scripts/serve
RUN pip install --no-cache-dir -e . \
    && useradd --create-home --uid 10001 hearts \
    && mkdir /data \
    && chown hearts /data

USER 10001
# Compile the computer players' hot loops (play-outs, sampler, Expert's opponent model) now, into
# this user's Numba cache, so the first game does not wait for them.
RUN python -c "from app.bots.hard import warm_up; warm_up()"
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s \
  CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'))"]
CMD ["./scripts/serve"]
