"""Running jobs: the job and its payload (:mod:`.job`), its cache key (:mod:`.cache`), producing it
on a worker (:mod:`.produce`), batching on the client (:mod:`.batch`), where calls run (local
processes, :mod:`.executor`; a Dask cluster, :mod:`.dask` and :mod:`.dask_worker`), a task's
scratch and failures (:mod:`.worker`), and the hand-off between a split job's tasks (:mod:`.handoff`)."""
