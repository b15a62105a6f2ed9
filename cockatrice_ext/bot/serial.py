"""One game's work, in order, in its own task.

The client hands the bot one event at a time and awaits each (its dispatcher). A game whose handling waits,
for instance for game commands Servatrice counts (20 per 10 s per connection under the shipped limits),
would hold every other game of the session behind it. So each refereed game gets a :class:`SerialWork`: its
events and the private commands meant for it are queued there and run one at a time, in the order they
arrived, while the dispatcher goes on to the next event. One game's order is kept; other games do not wait.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Awaitable, Callable

LOGGER = logging.getLogger(__name__)

Job = Callable[[], Awaitable[object]]


class SerialWork:
    """Jobs run one at a time, in submission order, by one task started on demand (it ends when the queue
    is empty). A job's exception is logged with ``name`` and does not stop the jobs after it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._jobs: collections.deque[tuple[Job | None, asyncio.Future[None]]] = collections.deque()
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    @property
    def idle(self) -> bool:
        """Whether nothing is queued or running (a queue kept per user may then be dropped)."""
        return not self._jobs and (self._task is None or self._task.done())

    def submit(self, job: Job) -> asyncio.Future[None]:
        """Queue ``job``; the returned future is done when it has run (its result is always None: a failure
        is logged here, so nobody has to await it)."""
        return self._queue(job)

    async def caught_up(self) -> None:
        """Wait until every job submitted before this call has run. Called from a job of this queue it
        returns at once (the jobs behind it are the caller's to return to)."""
        if self._task is None or self._task.done() or asyncio.current_task() is self._task:
            return
        await asyncio.shield(self._queue(None))

    def close(self) -> None:
        """Stop: the running job is cancelled and the waiting ones dropped (the game is no longer
        refereed here, or the bot stops)."""
        self.closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
        while self._jobs:
            _, done = self._jobs.popleft()
            if not done.done():
                done.cancel()

    def _queue(self, job: Job | None) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if self.closed:
            done.cancel()
            return done
        self._jobs.append((job, done))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run(), name=f"serial work: {self.name}")
        return done

    async def _run(self) -> None:
        while self._jobs:
            job, done = self._jobs[0]
            try:
                if job is not None:
                    await job()
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():  # this queue is being stopped
                    if not done.done():
                        done.cancel()
                    raise
                LOGGER.info("%s: a job was cancelled", self.name)  # by what it awaited: the next one runs
            except Exception:
                LOGGER.exception("%s: a job failed", self.name)
            if self._jobs and self._jobs[0][1] is done:
                self._jobs.popleft()
            if not done.done():
                done.set_result(None)
